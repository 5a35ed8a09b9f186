// Assertions on the Status body a failed client-node call carries (ApiException.body is raw text).
import { ApiException } from '@kubernetes/client-node';
import { expect } from 'vitest';

export interface ExpectedStatus {
  code: number;
  reason?: string;
  message?: string;
  details?: Record<string, unknown>;
}

/** Awaits a call that must fail and returns the parsed Status, after checking code and shape. */
export async function expectStatus(call: Promise<unknown>, expected: ExpectedStatus): Promise<Record<string, unknown>> {
  let error: unknown;
  try {
    await call;
  } catch (err) {
    error = err;
  }
  expect(error, 'the call should have failed').toBeInstanceOf(ApiException);
  const e = error as ApiException<unknown>;
  expect(e.code).toBe(expected.code);
  const body = JSON.parse(e.body as string) as Record<string, unknown>;
  expect(body).toMatchObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: expected.code });
  expect(e.headers['content-type']).toBe('application/json');
  if ('reason' in expected) expect(body.reason).toBe(expected.reason);
  if ('message' in expected) expect(body.message).toBe(expected.message);
  if ('details' in expected) expect(body.details).toEqual(expected.details);
  return body;
}
