import { describe, expect, it } from 'vitest';
import { convertedObjectsFromReply, reviewVersionOf } from './conversion-review.ts';

const ok = (body: unknown, status = 200, contentType: string | undefined = 'application/json') => ({ status, contentType, body: typeof body === 'string' ? body : JSON.stringify(body) });
const review = (response: unknown, apiVersion = 'apiextensions.k8s.io/v1') => ({ apiVersion, kind: 'ConversionReview', response });

describe('reviewVersionOf', () => {
  it('takes the first version this server speaks', () => {
    expect(reviewVersionOf(['v2', 'v1beta1', 'v1'])).toBe('v1beta1');
    expect(() => reviewVersionOf(['v2'])).toThrow('no supported conversion review versions');
  });
});

describe('convertedObjectsFromReply', () => {
  it('answers the converted objects of a successful v1 review', () => {
    const objects = [{ kind: 'A' }];
    expect(convertedObjectsFromReply(ok(review({ uid: 'u', result: { status: 'Success' }, convertedObjects: objects })), 'v1', 'u')).toEqual(objects);
  });

  it('reads HTTP failures as client-go does', () => {
    expect(() => convertedObjectsFromReply(ok('nope', 404, 'text/plain'), 'v1', 'u')).toThrow(/^the server could not find the requested resource$/);
    expect(() => convertedObjectsFromReply({ status: 500, contentType: undefined, body: ' oops\n' }, 'v1', 'u')).toThrow('an error on the server ("oops") has prevented the request from succeeding');
    expect(() => convertedObjectsFromReply(ok('{"x":1}', 500, 'application/json'), 'v1', 'u')).toThrow('an error on the server ("unknown") has prevented the request from succeeding');
    expect(() => convertedObjectsFromReply({ status: 418, contentType: undefined, body: '' }, 'v1', 'u')).toThrow('the server responded with the status code 418 but did not return more information');
  });

  it('refuses bodies that are not a ConversionReview of the version sent', () => {
    expect(() => convertedObjectsFromReply({ status: 200, contentType: undefined, body: '' }, 'v1', 'u')).toThrow('0-length response with status code: 200 and content type: application/json');
    expect(() => convertedObjectsFromReply(ok('<html>'), 'v1', 'u')).toThrow(`couldn't get version/kind; json parse error: invalid character '<' looking for beginning of value`);
    expect(() => convertedObjectsFromReply(ok(review({}, 'apiextensions.k8s.io/v1beta1')), 'v1', 'u')).toThrow('converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion');
    expect(() => convertedObjectsFromReply(ok({ response: { uid: 'u', result: { status: 'Success' } } }), 'v1', 'u')).toThrow('expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got /, Kind=');
    expect(() => convertedObjectsFromReply(ok(review(undefined)), 'v1', 'u')).toThrow('no response provided');
  });

  it('checks the uid of v1 answers only', () => {
    expect(() => convertedObjectsFromReply(ok(review({ uid: 'x', result: { status: 'Success' } })), 'v1', 'u')).toThrow('expected response.uid="u", got "x"');
    expect(convertedObjectsFromReply(ok(review({ uid: 'x', result: { status: 'Success' } }, 'apiextensions.k8s.io/v1beta1')), 'v1beta1', 'u')).toEqual([]);
  });

  it('turns a result other than Success into its message', () => {
    expect(() => convertedObjectsFromReply(ok(review({ uid: 'u', result: { status: 'Failed', message: 'bad' } })), 'v1', 'u')).toThrow(/^bad$/);
    expect(() => convertedObjectsFromReply(ok(review({ uid: 'u', result: {} })), 'v1', 'u')).toThrow(`response.result.status was '', not 'Success'`);
  });
});
