// Calling one webhook (mutating/dispatcher.go callAttrMutatingHook, validating/dispatcher.go
// callHook): the dry-run check, the AdmissionReview, the POST with the webhook's timeout (real
// time: the fake clock does not run by itself), the answer's checks, its warnings and audit
// annotations, and the denial as errors/statuserror.go ToStatusErr makes it.
import { badRequest, internalError, StatusError, type Status } from '../../errors/status-error.ts';
import type { RandomSource } from '../../util/clock-and-random.ts';
import { WebhookTransportError, type WebhookCaller } from '../../webhooks/types.ts';
import type { WebhookAccessor } from './accessor.ts';
import { admissionRequest, admissionReview, reviewVersionOf, type WebhookRequest } from './request.ts';
import { CallFailure, decodeReview, verifyAdmissionResponse, type AdmissionResponse } from './response.ts';

/** The admissionregistration/v1 default of timeoutSeconds. */
const DEFAULT_TIMEOUT_SECONDS = 10;

/** webhookutil.ErrCallingWebhook: the call failed; failurePolicy decides. */
export class CallingWebhookError extends Error {
  readonly webhookName: string;
  readonly reason: string;
  constructor(webhookName: string, reason: string) {
    super(`failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`);
    this.webhookName = webhookName;
    this.reason = reason;
  }
  /** What failing closed answers (apierrors.NewInternalError(err)). */
  toStatusError(): StatusError {
    return internalError(this.message);
  }
}

/** webhookerrors.ToStatusErr: the webhook's own status, its message prefixed, never below 400. */
export function denialStatus(webhookName: string, result: Partial<Status> | undefined): StatusError {
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const r = result ?? {};
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const message = typeof r.message === 'string' && r.message ? `${deniedBy}: ${r.message}` : typeof r.reason === 'string' && r.reason ? `${deniedBy}: ${r.reason}` : `${deniedBy} without explanation`;
  return new StatusError({
    message,
    code,
    ...(typeof r.reason === 'string' && r.reason ? { reason: r.reason } : {}),
    ...(r.details && typeof r.details === 'object' ? { details: r.details } : {}),
    ...(r.metadata && typeof r.metadata === 'object' ? { metadata: r.metadata } : {}),
  });
}

export interface CallContext {
  webhooks: WebhookCaller | undefined;
  random: RandomSource;
}

/**
 * Calls `hook` about `r`. Resolves with its (allowed) answer; throws a CallingWebhookError when
 * the call failed, the denial's StatusError when it said no, and the dry-run refusal.
 */
export async function callHook(ctx: CallContext, hook: WebhookAccessor, r: WebhookRequest, mutating: boolean): Promise<AdmissionResponse> {
  const { spec } = hook;
  if (r.attributes.dryRun && spec.sideEffects !== 'None' && spec.sideEffects !== 'NoneOnDryRun') {
    throw badRequest(`admission webhook ${JSON.stringify(spec.name)} does not support dry run`);
  }
  const version = reviewVersionOf(spec.admissionReviewVersions);
  if (!version) throw new CallingWebhookError(spec.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  const uid = ctx.random.uid();
  const review = admissionReview(version, admissionRequest(uid, r, mutating));
  let decoded: Record<string, unknown>;
  try {
    if (!ctx.webhooks) throw new WebhookTransportError('no webhook transport in this cluster');
    const reply = await ctx.webhooks.post(spec.clientConfig, review, { timeoutMs: (spec.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000 });
    decoded = decodeReview(reply, version);
  } catch (err) {
    // A transport failure, a non-2xx answer or an undecodable body; a handler's own bug lands here too.
    const message = err instanceof WebhookTransportError || err instanceof CallFailure || err instanceof Error ? err.message : String(err);
    throw new CallingWebhookError(spec.name, `failed to call webhook: ${message}`);
  }
  let response: AdmissionResponse;
  try {
    response = verifyAdmissionResponse(decoded, version, uid, mutating);
  } catch (err) {
    // A patch that is not base64 already fails decoding the answer (encoding/json's []byte).
    if (err instanceof CallFailure) throw new CallingWebhookError(spec.name, `failed to call webhook: ${err.message}`);
    throw new CallingWebhookError(spec.name, `received invalid webhook response: ${(err as Error).message}`);
  }
  for (const [k, v] of Object.entries(response.auditAnnotations)) {
    // AddAnnotation refuses to overwrite a key with another value; the first one stays.
    const key = `${spec.name}/${k}`;
    if (!(key in r.attributes.auditAnnotations)) r.attributes.auditAnnotations[key] = v;
  }
  for (const w of response.warnings) r.attributes.warnings.push(w);
  if (!response.allowed) throw denialStatus(spec.name, response.result);
  return response;
}
