// The ValidatingAdmissionWebhook plugin (validating/plugin.go, dispatcher.go): every matching
// webhook is called at once; a call failure fails open or closed by failurePolicy; of several
// refusals the first to come back is the answer.
import type { AdmissionPlugin } from '../../registry/admission.ts';
import type { AdmissionServices } from '../services.ts';
import { WebhookSource, type WebhookAccessor } from './accessor.ts';
import { callHook, CallingWebhookError, type CallContext } from './call.ts';
import { isExemptFromWebhooks } from './exempt.ts';
import { mayCallHook, shouldCallHook } from './matching.ts';
import { webhookRequestOf, type WebhookRequest } from './request.ts';

export const VALIDATING_WEBHOOK_PLUGIN = 'ValidatingAdmissionWebhook';

export function validatingAdmissionWebhook(services: AdmissionServices): AdmissionPlugin {
  const ctx: CallContext = { webhooks: services.webhooks, random: services.random };
  const source = new WebhookSource(services.store, 'validatingwebhookconfigurations');
  return {
    name: VALIDATING_WEBHOOK_PLUGIN,
    validate(attributes) {
      if (isExemptFromWebhooks(attributes.type)) return;
      const all = source.webhooks();
      if (all.length === 0) return;
      const r = webhookRequestOf(attributes);
      const hooks = all.filter((hook) => mayCallHook(hook, r));
      if (hooks.length === 0) return;
      // Every webhook's match is decided (and may fail the request) before any is called.
      const matches = hooks.map((hook) => shouldCallHook(services, hook, r));
      if (matches.every((m) => m === undefined)) return;
      // Conversions run together; the first failure is reported, the others must not go unhandled.
      for (const m of matches) if (m instanceof Promise) m.catch(() => undefined);
      return validateWith(ctx, hooks, matches, r);
    },
  };
}

async function validateWith(ctx: CallContext, hooks: WebhookAccessor[], matches: ReturnType<typeof shouldCallHook>[], r: WebhookRequest): Promise<void> {
  const relevant: Array<{ hook: WebhookAccessor; request: WebhookRequest }> = [];
  for (const [i, matched] of matches.entries()) {
    const request = matched instanceof Promise ? await matched : matched;
    if (request) relevant.push({ hook: hooks[i]!, request });
  }
  if (relevant.length === 0) return;
  const { attributes } = r;
  const errors: unknown[] = [];
  await Promise.all(
    relevant.map(async ({ hook, request }, index) => {
      try {
        await callHook(ctx, hook, request, false);
      } catch (err) {
        if (!(err instanceof CallingWebhookError)) {
          errors.push(err);
          return;
        }
        if (hook.spec.failurePolicy !== 'Ignore') {
          errors.push(err.toStatusError());
          return;
        }
        const key = `failed-open.validating.webhook.admission.k8s.io/round_0_index_${index}`;
        if (!(key in attributes.auditAnnotations)) attributes.auditAnnotations[key] = hook.spec.name;
      }
    }),
  );
  if (errors.length > 0) throw errors[0];
}
