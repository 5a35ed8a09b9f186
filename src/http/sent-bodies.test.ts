import { describe, expect, it } from 'vitest';
import { bodyOfResponse, sentResponse } from './sent-bodies.ts';

describe('sentResponse', () => {
  it('reads back the body it was built from, as text and as bytes, through a clone too', async () => {
    const response = sentResponse('{"a":"é"}\n', { status: 201, headers: { 'content-type': 'application/json' } });
    const copy = response.clone();
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('{"a":"é"}\n');
    expect(new Uint8Array(await copy.arrayBuffer())).toEqual(new Uint8Array(Buffer.from('{"a":"é"}\n')));
    expect(bodyOfResponse(response)).toBe('{"a":"é"}\n');
  });

  it('gives a string body without a content-type the one fetch gives it', () => {
    expect(sentResponse('x', { status: 200 }).headers.get('content-type')).toBe('text/plain;charset=UTF-8');
    expect(sentResponse(new Uint8Array([1]), { status: 200 }).headers.get('content-type')).toBeNull();
  });

  it('hands a reader bytes of its own: changing them leaves the remembered body alone', async () => {
    const sent = new Uint8Array([1, 2, 3]);
    const response = sentResponse(sent, { status: 200 });
    const { value } = await response.body!.getReader().read();
    value![0] = 9;
    expect(bodyOfResponse(response)).toBe(sent);
    expect([...sent]).toEqual([1, 2, 3]);
  });

  it('answers an empty body as no bytes', async () => {
    expect(await sentResponse('', { status: 200 }).text()).toBe('');
  });
});
