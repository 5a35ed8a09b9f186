// The MutatingAdmissionWebhook plugin (mutating/plugin.go, dispatcher.go, reinvocationcontext.go):
// webhooks in order, each one's JSONPatch applied before the next is called, failurePolicy on
// call failures; IfNeeded webhooks called again in the chain's second run of the mutating phase
// (registry/admission.ts) when a later webhook, policy or in-tree plugin changed the object. The
// patched object is defaulted again and goes on to validation and the validating webhooks as any
// other object would.
import { isPlainObject, type KubeObject } from '../../apis/object.ts';
import { goJsonTypeError, VERSION_KIND_ERROR_PREFIX } from '../../go/json.ts';
import { internalError } from '../../errors/status-error.ts';
import { deepEqual } from '../../util/deep-equal.ts';
import { decodeBuiltin, hasTypedDecoding } from '../../decoding/builtin-decoder.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../../registry/admission.ts';
import type { AdmissionServices } from '../services.ts';
import { WebhookSource, type WebhookAccessor } from './accessor.ts';
import { callHook, CallingWebhookError, type CallContext } from './call.ts';
import { isExemptFromWebhooks } from './exempt.ts';
import { mayCallHook, shouldCallHook } from './matching.ts';
import { reviewObject, webhookRequestOf, type WebhookRequest } from './request.ts';
import { convertObject } from './equivalent.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import type { AdmissionResponse } from './response.ts';

export const MUTATING_WEBHOOK_PLUGIN = 'MutatingAdmissionWebhook';

/** webhookReinvokeContext (reinvocationcontext.go): who was called with IfNeeded, who must be called again, and the object the webhooks last left. */
class ReinvokeState {
  private previouslyInvoked = new Set<string>();
  readonly toReinvoke = new Set<string>();
  lastOutput: unknown = undefined;
  requireReinvokingPreviouslyInvoked(): void {
    for (const uid of this.previouslyInvoked) this.toReinvoke.add(uid);
    this.previouslyInvoked = new Set();
  }
  addReinvocable(uid: string): void {
    this.previouslyInvoked.add(uid);
  }
}

export function mutatingAdmissionWebhook(services: AdmissionServices): AdmissionPlugin {
  const ctx: CallContext = { webhooks: services.webhooks, random: services.random };
  const source = new WebhookSource(services.store, 'mutatingwebhookconfigurations');
  return {
    name: MUTATING_WEBHOOK_PLUGIN,
    admit(attributes) {
      if (isExemptFromWebhooks(attributes.type)) return;
      const all = source.webhooks();
      if (all.length === 0) return;
      // The request's object is changed in place by each patch: one request serves every webhook.
      const r = webhookRequestOf(attributes);
      const hooks = all.filter((hook) => mayCallHook(hook, r));
      if (hooks.length === 0 || !anyMayBeCalled(services, hooks, r)) return;
      return admitWith(services, ctx, hooks, all, r);
    },
  };
}

/**
 * Whether any webhook matches the request as it is now (without calling anything). When none
 * does, none is called: only a called webhook's patch could make a later one match. Anything
 * that is not a plain no (a conversion, an error to report) goes the full way.
 */
function anyMayBeCalled(services: AdmissionServices, hooks: readonly WebhookAccessor[], r: WebhookRequest): boolean {
  try {
    return hooks.some((hook) => shouldCallHook(services, hook, r, true) !== undefined);
  } catch {
    return true;
  }
}

async function admitWith(services: AdmissionServices, ctx: CallContext, hooks: WebhookAccessor[], all: WebhookAccessor[], r: WebhookRequest): Promise<void> {
  // The state lives in the chain's reinvocation context, across its two runs of the mutating phase.
  const reinvocation = r.attributes.reinvocation;
  let state = reinvocation?.values.get(MUTATING_WEBHOOK_PLUGIN) as ReinvokeState | undefined;
  if (!state) {
    state = new ReinvokeState();
    reinvocation?.values.set(MUTATING_WEBHOOK_PLUGIN, state);
  }
  const isReinvoke = reinvocation?.isReinvoke ?? false;
  // In the second run, a change by any other plugin since the webhooks last ran asks for every
  // IfNeeded webhook called before (dispatcher.go, IsOutputChangedSinceLastWebhookInvocation).
  if (isReinvoke && !deepEqual(state.lastOutput, r.attributes.object)) state.requireReinvokingPreviouslyInvoked();
  try {
    await dispatch(services, ctx, hooks, all, r, state, isReinvoke ? 1 : 0);
  } finally {
    state.lastOutput = structuredClone(r.attributes.object);
  }
}

/** One round over the webhooks that may match; `index` is a webhook's place among all (audit keys). */
async function dispatch(services: AdmissionServices, ctx: CallContext, hooks: WebhookAccessor[], all: WebhookAccessor[], request: WebhookRequest, state: ReinvokeState, round: 0 | 1): Promise<void> {
  const attributes = request.attributes;
  for (const hook of hooks) {
    const index = all.indexOf(hook);
    const r = await shouldCallHook(services, hook, request);
    if (!r) continue;
    if (round === 1 && !state.toReinvoke.has(hook.uid)) continue;
    let changed = false;
    let error: unknown;
    try {
      const response = await callHook(ctx, hook, r, true);
      changed = await applyResponse(services, hook, r, response, round, index);
    } catch (err) {
      error = err;
    }
    addAnnotation(attributes, `mutation.webhook.admission.k8s.io/round_${round}_index_${index}`, JSON.stringify({ configuration: hook.configurationName, webhook: hook.spec.name, mutated: changed }));
    if (changed) {
      state.requireReinvokingPreviouslyInvoked();
      if (attributes.reinvocation) attributes.reinvocation.shouldReinvoke = true;
    }
    if (hook.spec.reinvocationPolicy === 'IfNeeded') state.addReinvocable(hook.uid);
    if (error === undefined) continue;
    if (error instanceof CallingWebhookError) {
      if (hook.spec.failurePolicy === 'Ignore') {
        addAnnotation(attributes, `failed-open.mutation.webhook.admission.k8s.io/round_${round}_index_${index}`, hook.spec.name);
        continue;
      }
      throw error.toStatusError();
    }
    throw error;
  }
}

function addAnnotation(attributes: AdmissionAttributes, key: string, value: string): void {
  if (!(key in attributes.auditAnnotations)) attributes.auditAnnotations[key] = value;
}

// The JSON patch engine of webhook answers loads with the first answer that carries a patch. One
// import shared by concurrent first callers (concurrent import()s break Jest's ESM runtime, jestjs/jest#11434).
let patchModule: Promise<typeof import('./patch.ts')> | undefined;

/** The patch of an allowed answer applied to the request's object; answers whether it changed. */
async function applyResponse(services: AdmissionServices, hook: WebhookAccessor, r: WebhookRequest, response: AdmissionResponse, round: number, index: number): Promise<boolean> {
  const name = hook.spec.name;
  if (!response.patch?.length) return false;
  const { applyPatch, decodePatch } = await (patchModule ??= import('./patch.ts'));
  const decoded = decodePatch(response.patch);
  if (!decoded.ok) throw new CallingWebhookError(name, `received undecodable patch in webhook response: ${decoded.error}`);
  if (decoded.operations.length === 0) return false;
  const obj = r.attributes.object;
  if (!obj) throw internalError(`admission webhook ${JSON.stringify(name)} attempted to modify the object, which is not supported for this operation`);
  if (response.patchType !== 'JSONPatch') throw new CallingWebhookError(name, `unsupported patch type ${JSON.stringify(response.patchType)}`);
  const sent = reviewObject(r, true)!;
  const patched = applyPatch(decoded, sent);
  if (!patched.ok) throw internalError(patched.error);
  if (!isPlainObject(patched.value)) throw internalError(`${VERSION_KIND_ERROR_PREFIX}${goJsonTypeError(patched.value) ?? 'unexpected end of JSON input'}`);
  const next = decodePatched(patched.value, r);
  const changed = !deepEqual(sent, next);
  addPatchAnnotation(r.attributes, hook, response, round, index);
  // An equivalent version's object goes back to the version of the request (dispatcher.go's final Convert).
  const target = equivalentTypeOf(services, r);
  replaceInPlace(obj, target ? await convertBack(next, target, r, services) : next, r);
  return changed;
}

function addPatchAnnotation(attributes: AdmissionAttributes, hook: WebhookAccessor, response: AdmissionResponse, round: number, index: number): void {
  let patch: unknown;
  try {
    patch = JSON.parse(new TextDecoder().decode(response.patch));
  } catch {
    return;
  }
  addAnnotation(attributes, `patch.webhook.admission.k8s.io/round_${round}_index_${index}`, JSON.stringify({ configuration: hook.configurationName, webhook: hook.spec.name, patch, patchType: 'JSONPatch' }));
}

/**
 * The registry's object becomes the patched one. What the real handler does to the object after
 * mutating admission runs again: a create's system fields (rest.BeforeCreate; a name the webhook
 * set is kept, and then none is generated) and the strategy's PrepareForCreate/PrepareForUpdate
 * with the defaulting kubefake does there; a custom resource's schema pruning and defaulting (what the CR codec does to a webhook's
 * additions).
 */
function replaceInPlace(obj: KubeObject, next: KubeObject, r: WebhookRequest): void {
  const before = obj.metadata ?? {};
  const systemFields = { uid: before.uid, creationTimestamp: before.creationTimestamp, generation: before.generation };
  const copy = structuredClone(next);
  // The registry holds on to the object and to its metadata: both are changed in place.
  const heldMetadata = obj.metadata;
  for (const key of Object.keys(obj)) delete (obj as Record<string, unknown>)[key];
  Object.assign(obj, copy);
  if (heldMetadata && isPlainObject(copy.metadata)) {
    for (const key of Object.keys(heldMetadata)) delete (heldMetadata as Record<string, unknown>)[key];
    obj.metadata = Object.assign(heldMetadata, copy.metadata);
  }
  const { type } = r.attributes;
  if (r.operation === 'CREATE') {
    const meta = (obj.metadata ??= {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(systemFields)) {
      if (v === undefined) delete meta[k];
      else meta[k] = v;
    }
  }
  if (type.decodeBody) {
    const outcome = type.decodeBody(obj);
    if (outcome.error) throw internalError(outcome.error);
  }
  if (r.operation === 'CREATE') type.strategy.prepareForCreate?.(obj, { user: r.attributes.userInfo });
  else if (r.operation === 'UPDATE' && r.oldObject) type.strategy.prepareForUpdate?.(obj, r.oldObject);
}

/**
 * jsonSerializer.Decode of the patched JSON into the kind's Go struct (not strict: unknown fields
 * are dropped); what Go cannot decode is an Internal error. Custom resources stay unstructured.
 */
function decodePatched(value: Record<string, unknown>, r: WebhookRequest): KubeObject {
  const { group, version, kind } = r.kind;
  if (r.attributes.type.unstructured || !hasTypedDecoding(group, version, kind)) return value as KubeObject;
  const outcome = decodeBuiltin({ group, version, kind, object: value, strict: false });
  if (outcome.ok === 'skipped') return value as KubeObject;
  if (!outcome.ok) throw internalError(outcome.error);
  return outcome.object;
}

/** The type of the version a webhook was called in, when not the request's. */
function equivalentTypeOf(services: AdmissionServices, r: WebhookRequest): ResourceType | undefined {
  if (r.kind.version === r.requestKind.version && r.kind.group === r.requestKind.group) return undefined;
  return services.catalog.find(r.resource.group, r.resource.version, r.resource.resource);
}

async function convertBack(obj: KubeObject, from: ResourceType, r: WebhookRequest, services: AdmissionServices): Promise<KubeObject> {
  try {
    return await convertObject(obj, from, r.attributes.type, services);
  } catch (err) {
    throw internalError(err instanceof Error ? err.message : String(err));
  }
}
