// Runs one fixture step through @kubernetes/client-node and returns what the server answered.
//
// Every request goes through a WireCapture middleware: it adds the step's query parameters and headers
// (KubernetesObjectApi has no parameter for fieldValidation or Accept), and keeps the raw response text
// and headers, because client-node's deserialization drops what the expectations look at (Warning
// headers, the status code of a success, null vs absent fields, Table rows).
import {
  ApiException,
  CustomObjectsApi,
  HttpMethod,
  KubernetesObjectApi,
  loadYaml,
  Observable,
  ResponseContext,
  type ConfigurationOptions,
  type KubeConfig,
  type KubernetesObject,
  type ObservableMiddleware,
  type PatchStrategy,
  type RequestContext,
  type V1APIResource,
} from '@kubernetes/client-node';
import { isJsonObject, type Json, type JsonObject, type ObjectRef, type Scenario, type Step, type StepAction } from './fixture-types.ts';
import { parseWarningHeader, type StepOutcome } from './matchers.ts';

/** A kind served from a CustomResourceDefinition of the scenario (manifests or created in a step). */
export interface CustomKind {
  group: string;
  /** Served versions in CRD order; the first one addresses steps that name only `name`. */
  versions: string[];
  kind: string;
  plural: string;
  namespaced: boolean;
}

export interface StepContext {
  kc: KubeConfig;
  customKinds: CustomKind[];
  /**
   * The namespace the fixtures' `default` stands for: `default` on the fake; the test's own
   * namespace when the suite runs against a real cluster (KUBEFAKE_KUBECONFIG).
   */
  namespace: string;
}

/** A namespace a fixture names, as this run addresses it. */
const namespaceIn = (ctx: StepContext, namespace: string | undefined): string | undefined => (namespace === 'default' ? ctx.namespace : namespace);

/** Misuse of the fixture format or something client-node cannot send: never a server answer. */
export class RunnerError extends Error {
  override name = 'RunnerError';
}

export function customKindsOf(scenario: Scenario): CustomKind[] {
  const objects: Json[] = [...scenario.manifests];
  for (const step of scenario.steps) if (step.action && 'object' in step.action) objects.push(step.action.object);
  const kinds: CustomKind[] = [];
  for (const obj of objects) {
    if (!isJsonObject(obj) || obj.kind !== 'CustomResourceDefinition' || !isJsonObject(obj.spec)) continue;
    const { group, names, scope, versions } = obj.spec;
    if (typeof group !== 'string' || !isJsonObject(names) || typeof names.kind !== 'string' || typeof names.plural !== 'string') continue;
    if (kinds.some((k) => k.group === group && k.kind === names.kind)) continue;
    const served = (Array.isArray(versions) ? versions : [])
      .filter((v): v is JsonObject => isJsonObject(v) && typeof v.name === 'string' && v.served !== false)
      .map((v) => v.name as string);
    kinds.push({ group, versions: served, kind: names.kind, plural: names.plural, namespaced: scope !== 'Cluster' });
  }
  return kinds;
}

interface Exchange {
  request: string;
  armed: boolean;
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * Client-node middleware seeing every request and response of one step. Only once `armed` (the step's
 * own request, not the discovery lookup or the read that fetches a resourceVersion) does it add the
 * step's query and headers.
 */
class WireCapture implements ObservableMiddleware {
  armed = false;
  readonly exchanges: Exchange[] = [];
  private pending = '';
  private readonly query: Record<string, string>;
  private readonly headers: Record<string, string>;

  constructor(step: Pick<Step, 'query' | 'headers'>) {
    this.query = step.query;
    this.headers = step.headers;
  }

  pre(ctx: RequestContext): Observable<RequestContext> {
    if (this.armed) {
      for (const [k, v] of Object.entries(this.query)) ctx.setQueryParam(k, v);
      const current = ctx.getHeaders();
      for (const [k, v] of Object.entries(this.headers)) {
        // The client already set e.g. `Accept`; header names are case-insensitive on the wire.
        for (const existing of Object.keys(current)) if (existing.toLowerCase() === k.toLowerCase()) delete current[existing];
        ctx.setHeaderParam(k, v);
      }
    }
    this.pending = `${ctx.getHttpMethod()} ${new URL(ctx.getUrl()).pathname}${new URL(ctx.getUrl()).search}`;
    return new Observable(Promise.resolve(ctx));
  }

  post(rsp: ResponseContext): Observable<ResponseContext> {
    return new Observable(this.record(rsp));
  }

  private async record(rsp: ResponseContext): Promise<ResponseContext> {
    const text = await rsp.body.text();
    this.exchanges.push({ request: this.pending, armed: this.armed, status: rsp.httpStatusCode, headers: rsp.headers, text });
    // The body stream is consumed: hand client-node a replayable copy.
    return new ResponseContext(rsp.httpStatusCode, rsp.headers, {
      text: async () => text,
      binary: async () => Buffer.from(text),
      stream: () => null,
    });
  }

  lastArmed(): Exchange | undefined {
    return this.exchanges.findLast((e) => e.armed);
  }
}

/** KubernetesObjectApi plus access to what it keeps protected: its middleware list and discovery lookup. */
class StepObjectApi extends KubernetesObjectApi {
  static forStep(kc: KubeConfig, capture: WireCapture): StepObjectApi {
    // Same construction as KubernetesObjectApi.makeApiClient(kc). Its methods take an `options`
    // Configuration but only use its baseServer/auth, never its middleware, so the capture must sit in
    // the client's own middleware list.
    const api = kc.makeApiClient(StepObjectApi);
    api.setDefaultNamespace(kc);
    api.configuration.middleware.push(capture);
    return api;
  }

  lookup(apiVersion: string, kind: string): Promise<V1APIResource | undefined> {
    return this.resource(apiVersion, kind);
  }

  /** GET of a discovery path through the client's own configuration (auth, middleware, http library). */
  getDiscovery(path: string): Promise<KubernetesObject> {
    const ctx = this.configuration.baseServer.makeRequestContext(path, HttpMethod.GET);
    ctx.setHeaderParam('Accept', 'application/json');
    return this.requestPromise(ctx, 'V1APIResourceList');
  }
}

function parseBody(body: unknown): Json | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  if (typeof body !== 'string') return Buffer.isBuffer(body) ? parseBody(body.toString('utf8')) : (body as Json);
  try {
    return JSON.parse(body) as Json;
  } catch {
    return body;
  }
}

/** Runs the armed call; the outcome is its wire response (ApiException's code and body for failures). */
async function outcomeOf(capture: WireCapture, call: () => Promise<unknown>): Promise<StepOutcome> {
  capture.armed = true;
  let failure: ApiException<unknown> | undefined;
  try {
    await call();
  } catch (err) {
    const ex = capture.lastArmed();
    if (err instanceof ApiException) failure = err;
    // A 2xx that client-node could not deserialize (e.g. a Table) still is the server's answer.
    else if (!ex || ex.status < 200 || ex.status > 299) throw err;
  } finally {
    capture.armed = false;
  }
  const ex = capture.lastArmed();
  if (!ex) throw new RunnerError('client-node sent no request for the step');
  const code = failure?.code ?? ex.status;
  let body = failure && failure.body !== undefined ? parseBody(failure.body) : parseBody(ex.text);
  // A plain-text 404 (Go's http.NotFound for a path no handler owns, e.g. a deleted CRD's group) is
  // what client-go turns into a NotFound StatusError (NewGenericServerResponse); the fixtures record
  // the server's answers as a Go client sees them.
  if (code === 404 && !(isJsonObject(body) && body.kind === 'Status')) {
    body = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };
  }
  return { code, body, warnings: parseWarningHeader(ex.headers['warning']), request: ex.request };
}

interface Target {
  apiVersion: string;
  kind: string;
  namespace: string | undefined;
  name: string | undefined;
  custom: CustomKind | undefined;
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function firstCustomKind(ctx: StepContext): CustomKind {
  const first = ctx.customKinds[0];
  if (!first || first.versions[0] === undefined) throw new RunnerError('the step names only `name`, but the scenario defines no custom kind with a served version');
  return first;
}

/** `{apiVersion, kind, namespace?, name?}`, or only `name`: the first custom kind in `default`. */
function resolveTarget(ctx: StepContext, ref: ObjectRef): Target {
  if (ref.apiVersion === undefined || ref.kind === undefined) {
    if (ref.apiVersion !== undefined || ref.kind !== undefined) throw new RunnerError('give both apiVersion and kind, or neither');
    const first = firstCustomKind(ctx);
    return {
      apiVersion: `${first.group}/${first.versions[0]!}`,
      kind: first.kind,
      namespace: first.namespaced ? (namespaceIn(ctx, ref.namespace) ?? ctx.namespace) : undefined,
      name: ref.name,
      custom: first,
    };
  }
  const { group } = splitApiVersion(ref.apiVersion);
  const custom = ctx.customKinds.find((k) => k.group === group && k.kind === ref.kind);
  // Namespaced objects without a namespace go to `default` (for built-ins client-node does that itself).
  const namespace = namespaceIn(ctx, ref.namespace) ?? (custom?.namespaced ? ctx.namespace : undefined);
  return { apiVersion: ref.apiVersion, kind: ref.kind, namespace: custom && !custom.namespaced ? undefined : namespace, name: ref.name, custom };
}

function targetOfObject(ctx: StepContext, obj: JsonObject): Target {
  const metadata = isJsonObject(obj.metadata) ? obj.metadata : {};
  if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') throw new RunnerError('the object needs apiVersion and kind');
  return resolveTarget(ctx, {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    ...(typeof metadata.namespace === 'string' ? { namespace: metadata.namespace } : {}),
    ...(typeof metadata.name === 'string' ? { name: metadata.name } : {}),
  });
}

function header(t: Target): { apiVersion: string; kind: string; metadata: { name: string } | { name: string; namespace: string } } {
  if (t.name === undefined) throw new RunnerError(`a name is needed to address ${t.kind}`);
  return { apiVersion: t.apiVersion, kind: t.kind, metadata: t.namespace === undefined ? { name: t.name } : { name: t.name, namespace: t.namespace } };
}

/** The object with namespace defaulted as the README says (client-node would do it too, from discovery). */
function withNamespace(obj: JsonObject, t: Target): JsonObject {
  const copy = structuredClone(obj);
  const metadata = isJsonObject(copy.metadata) ? copy.metadata : {};
  // A fixture's explicit `default` is the run's namespace too (resolveTarget mapped it into t).
  if (t.namespace !== undefined && (metadata.namespace === undefined || metadata.namespace === 'default')) metadata.namespace = t.namespace;
  copy.metadata = metadata;
  return copy;
}

/**
 * The wire-format object as a client-node model, the way `loadYaml` reads a manifest. Needed because for
 * built-in kinds KubernetesObjectApi serializes through the typed models, which use TypeScript property
 * names (`xKubernetesValidations`, `_default`, `ref`) and silently drop the wire names they do not map:
 * a CRD passed as plain JSON would lose every `x-kubernetes-*`, `default` and `$ref` of its schema.
 * JSON text is YAML, and deserialize+serialize round-trips every fixture object unchanged.
 */
export function toClientModel(obj: JsonObject): KubernetesObject {
  return loadYaml<KubernetesObject>(JSON.stringify(obj));
}

function customParams(t: Target): { group: string; version: string; plural: string; name: string; namespace?: string } {
  if (!t.custom) throw new RunnerError(`${t.kind} in ${t.apiVersion} is not a custom kind of the scenario; this verb uses CustomObjectsApi`);
  if (t.name === undefined) throw new RunnerError(`a name is needed to address ${t.kind}`);
  const { group, version } = splitApiVersion(t.apiVersion);
  return { group, version, plural: t.custom.plural, name: t.name, ...(t.namespace !== undefined ? { namespace: t.namespace } : {}) };
}

/**
 * Resolves the kind the way KubernetesObjectApi does (GET /apis/<group>/<version>) before the step's
 * request is armed, so the discovery lookup neither gets the step's query/headers nor counts as its answer.
 * Not ok when discovery does not list the kind or fails.
 */
async function discoverable(api: StepObjectApi, t: Target): Promise<{ ok: true } | { ok: false; why: string }> {
  try {
    if (await api.lookup(t.apiVersion, t.kind)) return { ok: true };
    return { ok: false, why: `discovery of ${t.apiVersion} does not list kind ${t.kind}` };
  } catch (err) {
    if (err instanceof ApiException) return { ok: false, why: `discovery of ${t.apiVersion} answered ${err.code}: ${String(err.body).slice(0, 300)}` };
    throw err;
  }
}

const PATCH_TYPES: readonly string[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
] satisfies PatchStrategy[];

export async function executeStep(ctx: StepContext, step: Step & { action: StepAction }): Promise<StepOutcome> {
  const capture = new WireCapture(step);
  const api = StepObjectApi.forStep(ctx.kc, capture);
  const custom = ctx.kc.makeApiClient(CustomObjectsApi);
  // The generated APIs do honour per-request middleware: append the capture to the client's own.
  const opts: ConfigurationOptions = { middleware: [capture], middlewareMergeStrategy: 'append' };
  const action = step.action;

  const mustDiscover = async (t: Target) => {
    const d = await discoverable(api, t);
    if (!d.ok) throw new RunnerError(`client-node cannot address ${t.kind}: ${d.why}`);
  };
  /** Reads the current object (unarmed) for its resourceVersion. */
  const currentResourceVersion = async (t: Target): Promise<string | undefined> => {
    try {
      const current = await api.read(header(t));
      return current.metadata?.resourceVersion;
    } catch (err) {
      // No current object: send none and let the server answer the write itself.
      if (err instanceof ApiException && err.code === 404) return undefined;
      throw err;
    }
  };

  switch (action.verb) {
    case 'create': {
      const t = targetOfObject(ctx, action.object);
      await mustDiscover(t);
      const body = toClientModel(withNamespace(action.object, t));
      return outcomeOf(capture, () => api.create(body));
    }
    case 'update': {
      const t = targetOfObject(ctx, action.object);
      await mustDiscover(t);
      const body = toClientModel(withNamespace(action.object, t));
      const rv = await currentResourceVersion(t);
      if (rv !== undefined) body.metadata = { ...body.metadata, resourceVersion: rv };
      return outcomeOf(capture, () => api.replace(body));
    }
    case 'updateStatus': {
      const t = targetOfObject(ctx, action.object);
      const p = customParams(t);
      const body = withNamespace(action.object, t);
      // A custom resource has no unconditional update, status included: fill in the resourceVersion too.
      const rv = await currentResourceVersion(t);
      if (rv !== undefined) body.metadata = { ...(isJsonObject(body.metadata) ? body.metadata : {}), resourceVersion: rv };
      return outcomeOf(capture, () =>
        p.namespace === undefined
          ? custom.replaceClusterCustomObjectStatus({ ...p, body }, opts)
          : custom.replaceNamespacedCustomObjectStatus({ ...p, namespace: p.namespace, body }, opts),
      );
    }
    case 'get':
    case 'list':
    case 'delete': {
      const t = resolveTarget(ctx, action.ref);
      const d = await discoverable(api, t);
      if (!d.ok) {
        // KubernetesObjectApi would not even send the request. For a custom kind the URL is known from the
        // CRD, so ask the resource itself (e.g. "list after the CRD is deleted" must see that list's 404).
        if (!t.custom) throw new RunnerError(`client-node cannot address ${t.kind}: ${d.why}`);
        const { group, version } = splitApiVersion(t.apiVersion);
        const base = { group, version, plural: t.custom.plural };
        if (action.verb === 'list') {
          return outcomeOf(capture, () =>
            t.namespace === undefined ? custom.listClusterCustomObject(base, opts) : custom.listNamespacedCustomObject({ ...base, namespace: t.namespace }, opts),
          );
        }
        const p = customParams(t);
        if (action.verb === 'get') {
          return outcomeOf(capture, () =>
            p.namespace === undefined ? custom.getClusterCustomObject(p, opts) : custom.getNamespacedCustomObject({ ...p, namespace: p.namespace }, opts),
          );
        }
        return outcomeOf(capture, () =>
          p.namespace === undefined ? custom.deleteClusterCustomObject(p, opts) : custom.deleteNamespacedCustomObject({ ...p, namespace: p.namespace }, opts),
        );
      }
      if (action.verb === 'list') return outcomeOf(capture, () => api.list(t.apiVersion, t.kind, t.namespace));
      if (action.verb === 'get') return outcomeOf(capture, () => api.read(header(t)));
      return outcomeOf(capture, () => api.delete(header(t)));
    }
    case 'patch': {
      const { patch } = action;
      const ref: ObjectRef = { name: patch.name };
      if (patch.apiVersion !== undefined) ref.apiVersion = patch.apiVersion;
      if (patch.kind !== undefined) ref.kind = patch.kind;
      if (patch.namespace !== undefined) ref.namespace = patch.namespace;
      const t = resolveTarget(ctx, ref);
      if (!PATCH_TYPES.includes(patch.type)) throw new RunnerError(`unknown patch type ${patch.type}`);
      // KubernetesObjectApi.patch sends its `spec` argument as the body and addresses the object from
      // its apiVersion/kind/metadata.name, so a patch must be a map that carries those (a JSON patch
      // list cannot be expressed). They equal the stored values, so the patch's meaning is unchanged.
      if (!isJsonObject(patch.body)) throw new RunnerError('client-node KubernetesObjectApi.patch cannot send a non-map patch body (JSON patch)');
      const { apiVersion, kind, metadata: id } = header(t);
      const bodyMeta = isJsonObject(patch.body.metadata) ? patch.body.metadata : {};
      const spec = toClientModel({ ...patch.body, apiVersion, kind, metadata: { ...bodyMeta, ...id } });
      await mustDiscover(t);
      return outcomeOf(capture, () => api.patch(spec, undefined, undefined, undefined, undefined, patch.type as PatchStrategy));
    }
    case 'getScale':
    case 'updateScale': {
      const first = firstCustomKind(ctx);
      const t: Target = {
        apiVersion: `${first.group}/${first.versions[0]!}`,
        kind: first.kind,
        namespace: first.namespaced ? ctx.namespace : undefined,
        name: action.scale.name,
        custom: first,
      };
      const p = customParams(t);
      const getScale = () =>
        p.namespace === undefined ? custom.getClusterCustomObjectScale(p, opts) : custom.getNamespacedCustomObjectScale({ ...p, namespace: p.namespace }, opts);
      if (action.verb === 'getScale') return outcomeOf(capture, getScale);
      // Read the Scale (unarmed), change spec.replicas, PUT it back with its resourceVersion.
      let scale: Json;
      try {
        scale = (await getScale()) as Json;
      } catch (err) {
        if (err instanceof ApiException) return outcomeOf(capture, getScale);
        throw err;
      }
      const body = isJsonObject(scale) ? structuredClone(scale) : {};
      if (action.scale.replicas !== undefined) body.spec = { ...(isJsonObject(body.spec) ? body.spec : {}), replicas: action.scale.replicas };
      return outcomeOf(capture, () =>
        p.namespace === undefined
          ? custom.replaceClusterCustomObjectScale({ ...p, body }, opts)
          : custom.replaceNamespacedCustomObjectScale({ ...p, namespace: p.namespace, body }, opts),
      );
    }
    case 'discovery': {
      const gv = action.discovery.groupVersion;
      const path = gv.includes('/') ? `/apis/${gv}` : `/api/${gv}`;
      return outcomeOf(capture, () => api.getDiscovery(path));
    }
  }
}
