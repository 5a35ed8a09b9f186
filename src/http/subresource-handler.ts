// Routes `/status` and `/scale` requests, as the apiserver installs them: GET, PUT and PATCH only.
// Custom resources answer what the CRD handler answers (404 NotFound of the object for an
// unserved subresource, 405 MethodNotSupported for other verbs); built-ins what go-restful answers
// for a path or method it has no route for. The other subresources a type declares (connecters,
// create-only and update-only ones) are served by the registry handler it names for each.
import { isPlainObject, type KubeObject } from '../apis/object.ts';
import type { PostSubresourceHandler, ResourceType } from '../apis/resource-type.ts';
import { badRequest, methodNotSupported, notFound, StatusError, unknownPath } from '../errors/status-error.ts';
import { PATCH_CONTENT_TYPES } from '../patch/content-types.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import { fieldValidationMode } from '../apis/options.ts';
import { bindPod } from '../registry/subresources/pod-binding.ts';
import { evictPod } from '../registry/subresources/pod-eviction.ts';
import { requestToken } from '../registry/subresources/serviceaccount-token.ts';
import { podConnect, podConnectTarget, validatePodLogOptions, type KubeletConnection, type PodConnectSubresource } from '../registry/subresources/pod-connect.ts';
import { ScaleRegistry, scaleTypeOf } from '../registry/subresources/scale.ts';
import { statusTypeOf, updateSubresourceTypeOf } from '../registry/subresources/status.ts';
import { bodyTarget, readBody, readWriteRequest } from './body.ts';
import type { OutputFormat } from './media-types.ts';
import { deleteOptionsFrom, getOptionsFrom, patchOptionsFrom, podLogOptionsFrom } from './query-options.ts';
import { markStreamed, sentResponse } from './sent-bodies.ts';
import { attachUpgradeResponse, execUpgradeResponse } from './exec-stream.ts';
import { admissionContextOf } from './admission-outcome.ts';
import { patchContentTypeOf, patchEngines, patcherFor } from './patch-request.ts';
import { APPLY_PATCH_CONTENT_TYPE, decodeApplyPatch } from '../apply/apply-patch.ts';
import type { ResourceRequest } from './request-info.ts';
import { objectResponse } from './responses.ts';
import { renderView, type ObjectView } from './table/index.ts';
import { OBJECT_META_DOC } from './table/swagger-docs.ts';
import { SCALE_API_VERSION, SCALE_KIND } from '../apis/scale.ts';

export interface SubresourceRequest {
  type: ResourceType;
  info: ResourceRequest & { name: string; subresource: string };
  request: Request;
  query: URLSearchParams;
  format: OutputFormat;
  view: ObjectView | undefined;
  registryFor(type: ResourceType): GenericRegistry;
  /** The handler's clock, for the ages Table output prints. */
  now(): Date;
  /** go-restful's 405 for a method without a route (built-ins). */
  methodNotAllowed(): StatusError;
  /** The registry of another served resource, for the subresources that consult one (undefined when not served). */
  registryOf(group: string, version: string, resource: string): GenericRegistry | undefined;
  /** The kubelet stand-in that answers pods/log for the nodes it runs (workloads clusters). */
  kubelet?: KubeletConnection;
}

/** go-restful's answer to a method a subresource has no route for (404 under the watch prefix). */
function requireMethod(r: SubresourceRequest, methods: readonly string[]): void {
  if (!methods.includes(r.request.method.toUpperCase()) || r.info.watchPrefix) throw r.info.watchPrefix ? unknownPath() : r.methodNotAllowed();
}

const POST_ONLY = ['POST'];

/**
 * A create-only subresource: POST only, then the registry handler the type declares for it
 * (`postSubresources`), for the object the path names.
 */
function servePost(handler: PostSubresourceHandler, r: SubresourceRequest): Promise<Response> {
  requireMethod(r, POST_ONLY);
  switch (handler) {
    case 'pod-binding':
      return serveBinding(r.registryFor(r.type), r.info.namespace, r.info.name, r.request, r.query, r.format, r.now());
    case 'pod-eviction':
      return serveEviction(r);
    case 'serviceaccount-token':
      return serveTokenRequest(r);
  }
}

/**
 * pods/binding, and a create of the legacy `bindings` resource (LegacyBindingREST), whose
 * Binding's own name says which pod (`name` undefined).
 */
async function serveBinding(pods: GenericRegistry, namespace: string | undefined, name: string | undefined, request: Request, query: URLSearchParams, format: OutputFormat, now: Date): Promise<Response> {
  const { body, options } = await readWriteRequest(request, query, { apiVersion: 'v1', kind: 'Binding', protobuf: true });
  const pod = name ?? (isPlainObject(body.metadata) && typeof body.metadata.name === 'string' ? body.metadata.name : '');
  const status = await bindPod(pods, namespace, pod, body, now, options);
  return objectResponse(status, { status: 201, format });
}

/** A collection POST the type serves as a create-only subresource of another resource (`createAsSubresource`). */
export async function serveCreateAsSubresource(
  target: ResourceType,
  handler: PostSubresourceHandler,
  registry: GenericRegistry,
  namespace: string,
  request: Request,
  query: URLSearchParams,
  format: OutputFormat,
  now: Date,
): Promise<Response> {
  if (handler !== 'pod-binding') throw new Error(`invariant: ${target.plural} cannot be created as ${handler}`);
  return serveBinding(registry, namespace, undefined, request, query, format, now);
}

/**
 * A subresource with a strategy of its own (`namespaces/finalize`, `certificatesigningrequests/
 * approval`): the verbs discovery lists for it, served as `/status` is, through its derived type.
 */
async function serveUpdateSubresource(r: SubresourceRequest, updateType: ResourceType): Promise<Response> {
  const listed = r.type.discoverySubresources?.find((s) => s.name === r.info.subresource)?.verbs ?? ['update'];
  const verb = verbOf(r.request.method.toUpperCase(), r.info.watchPrefix);
  if (!listed.includes(verb)) throw r.info.watchPrefix ? unknownPath() : r.methodNotAllowed();
  return serveObjectSubresource(r, verb, updateType);
}

async function serveEviction(r: SubresourceRequest): Promise<Response> {
  const { body, options } = await readWriteRequest(r.request, r.query, { apiVersion: 'policy/v1', kind: 'Eviction', protobuf: true });
  const out = await evictPod(body, {
    pods: r.registryFor(r.type),
    registryOf: r.registryOf,
    namespace: r.info.namespace ?? '',
    name: r.info.name,
    now: r.now(),
    deleteOptionsOf: (eviction) => deleteOptionsFrom(new URLSearchParams(), isPlainObject(eviction.deleteOptions) ? eviction.deleteOptions : {}),
    options,
  });
  // A Status with a failure code (more than one PDB) is written with that code, as any Status.
  return objectResponse(out, { status: typeof out.code === 'number' ? out.code : 201, format: r.format });
}

async function serveTokenRequest(r: SubresourceRequest): Promise<Response> {
  const { body, options } = await readWriteRequest(r.request, r.query, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', protobuf: true });
  const out = await requestToken(body, {
    options,
    serviceAccounts: r.registryFor(r.type),
    namespace: r.info.namespace ?? '',
    name: r.info.name,
    now: r.now(),
    registryOf: r.registryOf,
  });
  return objectResponse(out, { status: 201, format: r.format });
}

/**
 * A connect subresource (the pod connecters): the methods the type declares for it, then the pod
 * and its container resolved as the REST storage does, and what a server without kubelets
 * answers (pod-connect.ts).
 */
async function serveConnect(r: SubresourceRequest, methods: readonly string[]): Promise<Response> {
  requireMethod(r, methods);
  // The types declare only the connecters pod-connect.ts serves.
  const subresource = r.info.subresource as PodConnectSubresource;
  const { name, port } = podConnectTarget(subresource, r.info.name);
  // LogREST.Get: the options decoded (a 400) and validated (a 422) before the pod is looked up.
  const logOptions = subresource === 'log' ? podLogOptionsFrom(r.query) : undefined;
  if (logOptions) validatePodLogOptions(name, logOptions);
  const pod = await r.registryFor(r.type).get(r.info.namespace, name, {});
  const outcome = podConnect({ subresource, pod, container: r.query.get('container') ?? '', port, registryOf: r.registryOf, kubelet: r.kubelet, logOptions, command: r.query.getAll('command') });
  // StreamObject: a nil stream is 204 No Content.
  if (outcome.kind === 'no-content') return new Response(null, { status: 204 });
  // An exec the kubelet stand-in ran goes back over the WebSocket asked for (the transports make
  // the handshake); a plain request gets what the kubelet's stream handshake says to one.
  if (outcome.kind === 'exec') {
    const upgraded = execUpgradeResponse(r.request, r.query, outcome.result);
    if (upgraded) return upgraded;
    throw badRequest('Upgrade request required');
  }
  if (outcome.kind === 'attach') {
    const upgraded = attachUpgradeResponse(r.request, r.query, outcome.output);
    if (upgraded) return upgraded;
    throw badRequest('Upgrade request required');
  }
  // LogREST streams the kubelet's answer as text/plain; a followed log is flushed as it comes
  // and is no body the request log can hold.
  const headers = { 'content-type': 'text/plain' };
  if (outcome.log.kind === 'text') return sentResponse(outcome.log.body, { status: 200, headers });
  return markStreamed(new Response(outcome.log.body, { status: 200, headers }));
}

/** requestInfo.Verb of a request for a named object. */
function verbOf(method: string, watchPrefix: boolean): string {
  if (watchPrefix) return 'watch';
  return ({ GET: 'get', HEAD: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' } as Record<string, string>)[method] ?? method.toLowerCase();
}

/** The built-in subresources the type declares a handler of its own for (connecters, create-only, update-only). */
export const hasSubresourceHandler = (type: ResourceType, subresource: string): boolean =>
  type.connectSubresources?.[subresource] !== undefined ||
  type.postSubresources?.[subresource] !== undefined ||
  type.updateSubresources?.[subresource] !== undefined;

export async function serveSubresource(r: SubresourceRequest): Promise<Response> {
  const { type, info } = r;
  const connectMethods = type.connectSubresources?.[info.subresource];
  if (connectMethods) return serveConnect(r, connectMethods);
  const postHandler = type.postSubresources?.[info.subresource];
  if (postHandler) return servePost(postHandler, r);
  const updateType = updateSubresourceTypeOf(type, info.subresource);
  if (updateType) return serveUpdateSubresource(r, updateType);
  const served = (info.subresource === 'status' && type.statusStrategy) || (info.subresource === 'scale' && type.scale);
  if (!served) throw type.unstructured ? notFound({ group: type.group, resource: type.plural }, info.name) : unknownPath();
  const method = r.request.method.toUpperCase();
  const verb = verbOf(method, info.watchPrefix);
  if (verb !== 'get' && verb !== 'update' && verb !== 'patch') {
    throw type.unstructured ? methodNotSupported({ group: type.group, resource: type.plural }, verb) : info.watchPrefix ? unknownPath() : r.methodNotAllowed();
  }
  return info.subresource === 'status' ? serveObjectSubresource(r, verb, statusTypeOf(type)!) : serveScale(r, verb);
}

const respond = (r: SubresourceRequest, body: unknown, warnings: readonly string[] = []) =>
  objectResponse(body, { status: 200, format: r.format, warnings: [...(r.type.requestWarnings ?? []), ...warnings] });

/** get, update and patch of the whole object through a subresource's derived type (`/status`, `/approval`). */
async function serveObjectSubresource(r: SubresourceRequest, verb: string, subType: ResourceType): Promise<Response> {
  const { type, info, query } = r;
  const registry = r.registryFor(subType);
  switch (verb) {
    case 'get': {
      const object = await registry.get(info.namespace, info.name, getOptionsFrom(query));
      return respond(r, r.view ? renderView(r.view, type, { object }, query, r.now()) : object);
    }
    case 'update': {
      const { body, options } = await readWriteRequest(r.request, query, bodyTarget(type));
      const result = await registry.update(info.namespace, info.name, body, options);
      return respond(r, result.object, result.warnings);
    }
    default: {
      const contentType = patchContentTypeOf(r.request, type);
      const bytes = await readBody(r.request);
      const options = { ...patchOptionsFrom(query, r.request.headers.get('user-agent')), ...admissionContextOf(r.request) };
      const { patch, strictErrors, decoding } = await patcherFor(contentType, bytes, type, options);
      const result = await registry.patch(info.namespace, info.name, patch, { ...options, strictDecodeErrors: strictErrors, patchDecoding: decoding });
      return respond(r, result.object, result.warnings);
    }
  }
}

/** What a Scale PUT decodes: the typed autoscaling/v1 Scale, protobuf included (kubectl scale sends JSON). */
const SCALE_BODY_TARGET = { apiVersion: SCALE_API_VERSION, kind: SCALE_KIND, protobuf: true };

/** The typed autoscaling/v1 Scale, for strategic merge patches of built-in scales. */
const SCALE_TARGET = { group: 'autoscaling', version: 'v1', kind: SCALE_KIND, unstructured: false };

async function serveScale(r: SubresourceRequest, verb: string): Promise<Response> {
  const { type, info, query } = r;
  const scale = new ScaleRegistry(r.registryFor(scaleTypeOf(type)!), type.scale!);
  switch (verb) {
    case 'get': {
      const object = await scale.get(info.namespace, info.name, getOptionsFrom(query));
      return respond(r, r.view ? renderView(r.view, scaleTableType(type), { object }, query, r.now()) : object);
    }
    case 'update': {
      const { body, options } = await readWriteRequest(r.request, query, SCALE_BODY_TARGET);
      const result = await scale.update(info.namespace, info.name, body as KubeObject, options);
      return respond(r, result.object, result.warnings);
    }
    default: {
      const contentType = patchContentTypeOf(r.request, type);
      const bytes = await readBody(r.request);
      const options = { ...patchOptionsFrom(query, r.request.headers.get('user-agent')), ...admissionContextOf(r.request) };
      const fieldValidation = fieldValidationMode(options.fieldValidation);
      if (contentType === APPLY_PATCH_CONTENT_TYPE) {
        const result = await scale.apply(info.namespace, info.name, decodeApplyPatch(bytes, { force: options.force, fieldValidation }), options);
        return respond(r, result.object, result.warnings);
      }
      const patchType = PATCH_CONTENT_TYPES[contentType]!;
      const { applyPatch } = await patchEngines();
      const result = await scale.patch(info.namespace, info.name, (current) => applyPatch(patchType, current, bytes, SCALE_TARGET, { fieldValidation }), options);
      return respond(r, result.object, result.warnings);
    }
  }
}

/**
 * The table convertor a Scale is printed with: for custom resources the CRD handler's scale
 * columns (getScaleColumnsForVersion: Desired, Available, Age); built-ins are given the default
 * Name/Created At table.
 */
function scaleTableType(type: ResourceType): ResourceType {
  if (!type.unstructured) return { ...type, group: 'autoscaling', version: 'v1', kind: SCALE_KIND, plural: 'scale', printerColumns: undefined };
  return {
    ...type,
    printerColumns: [
      { name: 'Desired', type: 'integer', description: 'Number of desired replicas', jsonPath: '.spec.replicas' },
      { name: 'Available', type: 'integer', description: 'Number of actual replicas', jsonPath: '.status.replicas' },
      { name: 'Age', type: 'date', description: OBJECT_META_DOC.creationTimestamp, jsonPath: '.metadata.creationTimestamp' },
    ],
  };
}
