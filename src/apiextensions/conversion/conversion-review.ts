// ConversionReview requests and the reading of a webhook's answer, as apiextensions-apiserver
// pkg/apiserver/conversion/webhook_converter.go (createConversionReviewObjects,
// getConvertedObjectsFromResponse) and client-go's rest Result.Into do it. Every failure is an
// Error whose message is the Go error text (the caller prefixes `conversion webhook for … failed: `).
import { isPlainObject, parseApiVersion } from '../../apis/object.ts';
import { goJsonTypeError, goJsonValueKind, parseGoJson, VERSION_KIND_ERROR_PREFIX } from '../../go/json.ts';
import { goQuote } from '../../errors/go-format.ts';
import type { WebhookReply } from '../../webhooks/types.ts';

export const CONVERSION_REVIEW_GROUP = 'apiextensions.k8s.io';
export type ReviewVersion = 'v1' | 'v1beta1';

/** The first conversionReviewVersions entry this server speaks, or the Go error. */
export function reviewVersionOf(conversionReviewVersions: readonly string[]): ReviewVersion {
  for (const v of conversionReviewVersions) if (v === 'v1' || v === 'v1beta1') return v;
  throw new Error('no supported conversion review versions');
}

export function conversionReview(version: ReviewVersion, uid: string, desiredAPIVersion: string, objects: unknown[]) {
  return { kind: 'ConversionReview', apiVersion: `${CONVERSION_REVIEW_GROUP}/${version}`, request: { uid, desiredAPIVersion, objects }, response: { uid: '', convertedObjects: null, result: { metadata: {} } } };
}

/** NewGenericServerResponse's message for a status the client did not expect (no resource named). */
function unexpectedStatusMessage(code: number, serverMessage: string): string {
  switch (code) {
    case 409:
      return 'the server reported a conflict';
    case 404:
      return 'the server could not find the requested resource';
    case 400:
      return 'the server rejected our request for an unknown reason';
    case 401:
      return 'the server has asked for the client to provide credentials';
    case 403:
    case 415:
      return serverMessage;
    case 406:
      return serverMessage === '' || serverMessage === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : serverMessage;
    case 405:
      return 'the server does not allow this method on the requested resource';
    case 422:
      return 'the server rejected our request due to an error in our request';
    case 503:
      return 'the server is currently unable to handle the request';
    case 504:
      return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    case 429:
      return 'the server has received too many requests and has asked us to try again later';
  }
  if (code >= 500) return `an error on the server (${goQuote(serverMessage)}) has prevented the request from succeeding`;
  return `the server responded with the status code ${code} but did not return more information`;
}

const mediaTypeOf = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/** A Status body with status Failure, as Result.Error() prefers it over the generic text. */
function failureStatusMessage(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (isPlainObject(parsed) && parsed.kind === 'Status' && (parsed.apiVersion === undefined || parsed.apiVersion === 'v1') && parsed.status === 'Failure') {
      return typeof parsed.message === 'string' ? parsed.message : '';
    }
  } catch {
    // Not JSON: the generic text stays.
  }
  return undefined;
}

/**
 * What client-go's Result.Into reports for an answer that is not a 2xx body (a Status message or
 * NewGenericServerResponse's text), or an empty one; undefined for a body to decode. Admission
 * webhooks read their answers the same way.
 */
export function replyFailure(reply: WebhookReply): string | undefined {
  const contentType = reply.contentType || 'application/json';
  if (reply.status < 200 || reply.status > 206) {
    const isText = !reply.contentType || mediaTypeOf(reply.contentType).startsWith('text/');
    const serverMessage = isText ? reply.body.slice(0, 1024).trim() : 'unknown';
    return failureStatusMessage(reply.body) ?? unexpectedStatusMessage(reply.status, serverMessage);
  }
  if (reply.body.length === 0) return `0-length response with status code: ${reply.status} and content type: ${contentType}`;
  return undefined;
}

/**
 * The webhook's answer decoded into the ConversionReview of `version` and checked; answers the
 * converted objects. Throws the Go error text for anything a real apiserver refuses.
 */
export function convertedObjectsFromReply(reply: WebhookReply, version: ReviewVersion, expectedUid: string): unknown[] {
  const failure = replyFailure(reply);
  if (failure !== undefined) throw new Error(failure);
  // meta.go Interpret: encoding/json syntax and type errors, prefixed; `null` decodes as an empty review.
  const decoded = parseGoJson(reply.body);
  if (!decoded.ok) throw new Error(`${VERSION_KIND_ERROR_PREFIX}${decoded.error}`);
  const typeError = goJsonTypeError(decoded.value);
  if (typeError) throw new Error(`${VERSION_KIND_ERROR_PREFIX}${typeError}`);
  const parsed = (decoded.value ?? {}) as Record<string, unknown>;
  const rawApiVersion = typeof parsed.apiVersion === 'string' ? parsed.apiVersion : '';
  const rawKind = typeof parsed.kind === 'string' ? parsed.kind : '';
  // The JSON serializer fills a missing kind or group/version from the type decoded into.
  const gv = rawApiVersion ? parseApiVersion(rawApiVersion) : { group: CONVERSION_REVIEW_GROUP, version };
  const kind = rawKind || 'ConversionReview';
  if (gv.group === '' && gv.version === 'v1' && kind === 'Status') {
    if (parsed.status !== 'Success') throw new Error(typeof parsed.message === 'string' ? parsed.message : '');
  } else if (gv.group === CONVERSION_REVIEW_GROUP && (gv.version === 'v1' || gv.version === 'v1beta1') && kind === 'ConversionReview') {
    if (gv.version !== version) throw new Error(`converting (${gv.version}.ConversionReview) to (${version}.ConversionReview): unknown conversion`);
  } else if (gv.group === CONVERSION_REVIEW_GROUP && (gv.version === 'v1' || gv.version === 'v1beta1')) {
    throw new Error(`no kind ${goQuote(kind)} is registered for version ${goQuote(`${gv.group}/${gv.version}`)} in scheme "k8s.io/apiserver/pkg/util/webhook/client.go:71"`);
  } else {
    throw new Error(`no kind ${goQuote(kind)} is registered for version ${goQuote(gv.group ? `${gv.group}/${gv.version}` : gv.version)} in scheme "k8s.io/apiserver/pkg/util/webhook/client.go:71"`);
  }
  const response = parsed.response;
  if (response !== undefined && response !== null && !isPlainObject(response)) {
    throw new Error(`json: cannot unmarshal ${goJsonValueKind(response)} into Go struct field ConversionReview.response of type ${version}.ConversionResponse`);
  }
  if (version === 'v1') {
    // v1 answers must be v1 ConversionReviews meant for this request (v1beta1 never checked either).
    const got = parseApiVersion(rawApiVersion);
    if (rawApiVersion !== `${CONVERSION_REVIEW_GROUP}/v1` || rawKind !== 'ConversionReview') {
      throw new Error(`expected webhook response of ${CONVERSION_REVIEW_GROUP}/v1, Kind=ConversionReview, got ${got.group}/${got.version}, Kind=${rawKind}`);
    }
  }
  if (!isPlainObject(response)) throw new Error('no response provided');
  if (version === 'v1') {
    const uid = typeof response.uid === 'string' ? response.uid : '';
    if (uid !== expectedUid) throw new Error(`expected response.uid=${goQuote(expectedUid)}, got ${goQuote(uid)}`);
  }
  const result = isPlainObject(response.result) ? response.result : {};
  const status = typeof result.status === 'string' ? result.status : '';
  if (status !== 'Success') {
    const message = typeof result.message === 'string' ? result.message : '';
    throw new Error(message.length > 0 ? message : `response.result.status was '${status}', not 'Success'`);
  }
  const converted = response.convertedObjects;
  if (converted === undefined || converted === null) return [];
  if (!Array.isArray(converted)) {
    throw new Error(`json: cannot unmarshal ${goJsonValueKind(converted)} into Go struct field ConversionResponse.response.convertedObjects of type []runtime.RawExtension`);
  }
  return converted;
}
