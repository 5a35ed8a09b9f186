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

export interface ExpectedCause {
  field: string;
  reason: string;
  message: string;
}

/**
 * Awaits a write that must be rejected as 422 Invalid (apierrors.NewInvalid) and checks the whole
 * Status: `<Kind>.<group> "<name>" is invalid: <field>: <message>` (several causes in brackets,
 * comma-separated) and details with the causes in order.
 */
export async function expectInvalid(
  call: Promise<unknown>,
  object: { group: string; kind: string; name: string },
  causes: ExpectedCause[],
): Promise<Record<string, unknown>> {
  const errors = causes.map((c) => `${c.field}: ${c.message}`);
  return expectStatus(call, {
    code: 422,
    reason: 'Invalid',
    message: `${object.kind}.${object.group} "${object.name}" is invalid: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`,
    details: { name: object.name, group: object.group, kind: object.kind, causes: causes.map((c) => ({ reason: c.reason, message: c.message, field: c.field })) },
  });
}
