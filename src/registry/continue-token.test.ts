import { describe, expect, it } from 'vitest';
import { StatusError } from '../errors/status-error.ts';
import { decodeContinue, encodeContinue } from './continue-token.ts';

describe('continue tokens', () => {
  it('encode the etcd3 store format: base64url, no padding', () => {
    const token = encodeContinue('name1\u0000', 42);
    expect(token).not.toMatch(/[=+/]/);
    expect(Buffer.from(token, 'base64url').toString()).toBe('{"v":"meta.k8s.io/v1","rv":42,"start":"name1\\u0000"}');
    expect(decodeContinue(token)).toEqual({ resourceVersion: 42, startKey: 'name1\u0000' });
  });

  const badRequest = (token: string) => {
    try {
      decodeContinue(token);
    } catch (err) {
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).code).toBe(400);
      return (err as StatusError).status.message;
    }
    throw new Error('expected a 400');
  };

  it('rejects corrupt, foreign and path-escaping tokens with 400', () => {
    expect(badRequest('a!b')).toBe('invalid continue token: continue key is not valid: illegal base64 data at input byte 1');
    expect(badRequest(Buffer.from('{"v":"other/v1","rv":1,"start":"a"}').toString('base64url'))).toBe(
      'invalid continue token: continue key is not valid: server does not recognize this encoded version other/v1',
    );
    expect(badRequest(Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString('base64url'))).toBe('invalid continue token: inconsistent continuation');
    expect(badRequest(Buffer.from('{"v":"meta.k8s.io/v1","rv":3,"start":""}').toString('base64url'))).toBe('invalid continue token: empty start key');
    expect(badRequest(Buffer.from('{"v":"meta.k8s.io/v1","rv":3,"start":"../x"}').toString('base64url'))).toBe('invalid continue token: continue key is not valid: ../x');
  });
});
