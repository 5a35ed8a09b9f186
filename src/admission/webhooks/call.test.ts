// What admissionregistration/v1 validation keeps from reaching the dispatcher through the API
// (sideEffects Some/Unknown, no known review version), checked on callHook directly.
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../apis/resource-type.ts';
import { StatusError } from '../../errors/status-error.ts';
import type { AdmissionAttributes } from '../../registry/admission.ts';
import { labelSelectorAsSelector, type WebhookAccessor, type WebhookSpec } from './accessor.ts';
import { callHook, CallingWebhookError } from './call.ts';
import { webhookRequestOf } from './request.ts';

const type = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true } as ResourceType;

function attributes(dryRun: boolean): AdmissionAttributes {
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' } };
  return { operation: 'CREATE', type, subresource: '', namespace: 'default', name: 'a', object, oldObject: undefined, options: {}, dryRun, userInfo: undefined, warnings: [], auditAnnotations: {} };
}

function accessor(spec: Partial<WebhookSpec>): WebhookAccessor {
  const full = { name: 'x.example.com', clientConfig: { url: 'https://x.example.com' }, admissionReviewVersions: ['v1'], sideEffects: 'None', ...spec };
  return { uid: 'c/0', configurationName: 'c', spec: full, namespaceSelector: labelSelectorAsSelector({}), objectSelector: labelSelectorAsSelector({}) };
}

const calls: unknown[] = [];
const ctx = {
  random: { uid: () => '00000000-0000-4000-8000-000000000000', pick: (a: string) => a[0]! },
  webhooks: {
    post: async (_config: unknown, body: unknown) => {
      calls.push(body);
      return { status: 200, contentType: 'application/json', body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: '00000000-0000-4000-8000-000000000000', allowed: true } }) };
    },
  },
};

describe('callHook', () => {
  it('refuses a dry run for a webhook with side effects, as NewDryRunUnsupportedErr (a 400, not a call failure)', async () => {
    for (const sideEffects of ['Some', 'Unknown']) {
      const err = await callHook(ctx, accessor({ sideEffects }), webhookRequestOf(attributes(true)), false).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).status).toMatchObject({ code: 400, reason: 'BadRequest', message: 'admission webhook "x.example.com" does not support dry run' });
    }
    expect(calls).toHaveLength(0);
    await callHook(ctx, accessor({ sideEffects: 'Some' }), webhookRequestOf(attributes(false)), false);
    expect(calls).toHaveLength(1);
  });

  it('a webhook speaking no known AdmissionReview version fails the call', async () => {
    const err = await callHook(ctx, accessor({ admissionReviewVersions: ['v2'] }), webhookRequestOf(attributes(false)), false).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallingWebhookError);
    expect((err as CallingWebhookError).toStatusError().status.message).toBe(
      'Internal error occurred: failed calling webhook "x.example.com": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    );
  });
});
