// The ValidatingAdmissionWebhook plugin (validating/plugin.go, dispatcher.go): every matching
// webhook is called at once; a call failure fails open or closed by failurePolicy; of several
// refusals the first to come back is the answer.
import type { AdmissionPlugin } from '../../registry/admission.ts';
import type { AdmissionServices } from '../services.ts';
import { webhooksOf } from './accessor.ts';
import { callHook, CallingWebhookError, type CallContext } from './call.ts';
import { isExemptFromWebhooks } from './exempt.ts';
import { shouldCallHook } from './matching.ts';
import { webhookRequestOf } from './request.ts';

export const VALIDATING_WEBHOOK_PLUGIN = 'ValidatingAdmissionWebhook';

export function validatingAdmissionWebhook(services: AdmissionServices): AdmissionPlugin {
  const ctx: CallContext = { webhooks: services.webhooks, random: services.random };
  return {
    name: VALIDATING_WEBHOOK_PLUGIN,
    async validate(attributes) {
      if (isExemptFromWebhooks(attributes.type)) return;
      const hooks = webhooksOf(services.store, 'validatingwebhookconfigurations');
      if (hooks.length === 0) return;
      const r = webhookRequestOf(attributes);
      const relevant: Array<{ hook: (typeof hooks)[number]; request: NonNullable<Awaited<ReturnType<typeof shouldCallHook>>> }> = [];
      for (const hook of hooks) {
        const request = await shouldCallHook(services, hook, r);
        if (request) relevant.push({ hook, request });
      }
      if (relevant.length === 0) return;
      const errors: unknown[] = [];
      await Promise.all(
        relevant.map(async ({ hook, request }, index) => {
          try {
            await callHook(ctx, hook, request, false);
          } catch (err) {
            if (err instanceof CallingWebhookError) {
              if (hook.spec.failurePolicy === 'Ignore') {
                const key = `failed-open.validating.webhook.admission.k8s.io/round_0_index_${index}`;
                if (!(key in attributes.auditAnnotations)) attributes.auditAnnotations[key] = hook.spec.name;
                return;
              }
              errors.push(err.toStatusError());
              return;
            }
            errors.push(err);
          }
        }),
      );
      if (errors.length > 0) throw errors[0];
    },
  };
}
