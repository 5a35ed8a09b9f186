// Translates HTTP requests into registry calls and registry results into HTTP answers. Kubernetes
// semantics are decided in the registry; this layer only routes, negotiates and serialises.
import type { KubeletConnection } from '../registry/subresources/pod-connect.ts';
import { ApiCatalog } from '../apis/catalog.ts';
import {
  aggregatedDiscovery,
  apiGroupDocument,
  apiGroupList,
  apiResourceList,
  apiVersions,
} from '../apis/discovery.ts';
import { apiVersionOf } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { badRequest, methodNotAllowed, methodNotSupported, toStatusError, unknownPath, type Status } from '../errors/status-error.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import type { Clock } from '../util/clock-and-random.ts';
import type { ListResult } from '../registry/list.ts';
import { bodyTarget, decodeObjectBody, readBody, readWriteRequest } from './body.ts';
import { contentTypeEssence, SERVED_MEDIA_TYPES, type OutputFormat } from './media-types.ts';
import { loadBuiltinPrinters, negotiateView, renderView, type ObjectView } from './table/index.ts';
import type { KubeList } from '../apis/object.ts';
import { admissionContextOf, admissionWarningsOf } from './admission-outcome.ts';
import { deleteOptionsFrom, getOptionsFrom, isWatchRequest, listOptionsFrom, patchOptionsFrom, watchOptionsFrom } from './query-options.ts';
import { patchContentTypeOf, patcherFor } from './patch-request.ts';
import { watchResponse, type WatchStreamTuning } from './watch-stream.ts';
import type { ServedWatches } from './served-watches.ts';
import { parseRequestPath, type ResourceRequest } from './request-info.ts';
import { errorResponse, objectResponse, plainBadRequest, plainNotFound, statusResponse } from './responses.ts';
import { requestTargetOf } from './request-target.ts';
import { isPathSegmentName } from '../validation/names.ts';
import { goQuote } from '../errors/go-format.ts';
import { notAcceptable } from '../errors/status-error.ts';
import { discoveryResponse } from './discovery-response.ts';
import { loadOpenAPI, openapiResponse } from './openapi-response.ts';
import { hasSubresourceHandler, serveCreateAsSubresource, serveSubresource } from './subresource-handler.ts';

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  [key: string]: string;
}

export interface ApiHandlerDeps {
  catalog: ApiCatalog;
  registryFor(type: ResourceType): GenericRegistry;
  version: VersionInfo;
  /** host:port clients reach this server at (for /api's serverAddressByClientCIDRs). */
  serverAddress(request: Request): string;
  /** Bookmark interval and backlog limit of watch streams. */
  watchTuning?: WatchStreamTuning;
  /** The cluster's open watch streams (close() ends them). */
  servedWatches?: ServedWatches;
  /** The cluster's clock, for the ages Table output prints (default: real time). */
  clock?: Clock;
  /** The kubelet stand-in of a workloads cluster (pods/log). */
  kubelet?: KubeletConnection;
}

export class ApiHandler {
  private readonly deps: ApiHandlerDeps;

  constructor(deps: ApiHandlerDeps) {
    this.deps = deps;
  }

  private now(): Date {
    return this.deps.clock?.now() ?? new Date();
  }

  async handle(request: Request): Promise<Response> {
    try {
      const target = requestTargetOf(request);
      if (!target) return plainBadRequest();
      const info = parseRequestPath(target.path);
      if (info.kind === 'non-resource') {
        if (info.path.startsWith('/openapi/')) await loadOpenAPI();
        return this.nonResource(info.path, request);
      }
      return await this.resource(info, request, target.query);
    } catch (err) {
      return errorResponse(toStatusError(err));
    }
  }

  private nonResource(path: string, request: Request): Response {
    const { catalog } = this.deps;
    if (path.startsWith('/openapi/')) {
      const openapi = openapiResponse(request, path, catalog);
      if (openapi) return openapi;
    }
    const trimmed = path.length > 1 ? path.replace(/\/$/, '') : path;
    switch (trimmed) {
      case '/version':
        return objectResponse(this.deps.version);
      case '/healthz':
      case '/livez':
      case '/readyz':
        return new Response('ok', { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } });
      case '/api':
        return discoveryResponse(request, apiVersions(this.deps.serverAddress(request)), () => aggregatedDiscovery(catalog, true));
      case '/apis':
        return discoveryResponse(request, apiGroupList(catalog), () => aggregatedDiscovery(catalog, false));
    }
    const parts = trimmed.split('/').filter(Boolean);
    if (parts[0] === 'api' && parts.length === 2 && catalog.servesGroupVersion('', parts[1]!)) {
      return objectResponse(apiResourceList(catalog, '', parts[1]!));
    }
    if (parts[0] === 'apis' && parts.length === 2) {
      const doc = apiGroupDocument(catalog, parts[1]!);
      if (doc) return objectResponse(doc);
    }
    if (parts[0] === 'apis' && parts.length === 3 && catalog.servesGroupVersion(parts[1]!, parts[2]!)) {
      return objectResponse(apiResourceList(catalog, parts[1]!, parts[2]!));
    }
    return plainNotFound();
  }

  private async resource(info: ResourceRequest, request: Request, query: URLSearchParams): Promise<Response> {
    const { catalog } = this.deps;
    const type = catalog.find(info.group, info.version, info.resource);
    if (!type) {
      if (catalog.servesGroupVersion(info.group, info.version)) throw unknownPath();
      return plainNotFound();
    }
    // Namespaced objects live under namespaces/<ns>/; cluster-scoped ones never do.
    if ((info.namespace !== undefined && !type.namespaced) || (type.namespaced && info.namespace === undefined && info.name !== undefined)) {
      throw unknownPath();
    }
    // go-restful has no route for a subresource a built-in does not serve.
    if (info.subresource !== undefined && !type.unstructured && !type.subresources.includes(info.subresource) && !hasSubresourceHandler(type, info.subresource)) throw unknownPath();
    if (info.subresource === undefined && !type.unstructured) checkRoute(type, info, request.method.toUpperCase(), query);
    const negotiated = negotiateView(request.headers.get('accept'));
    if (!negotiated) throw notAcceptable(SERVED_MEDIA_TYPES);
    const { format, view } = negotiated;
    // Table views render synchronously with printers loaded on first use.
    if (view?.kind === 'Table') await loadBuiltinPrinters();
    try {
      if (info.name !== undefined) requireValidName(info.name);
      if (info.subresource !== undefined) {
        const { registryFor } = this.deps;
        const target = { ...info, name: info.name!, subresource: info.subresource };
        const registryOf = (group: string, version: string, resource: string) => {
          const other = catalog.find(group, version, resource);
          return other ? registryFor(other) : undefined;
        };
        return await serveSubresource({ type, info: target, request, query, format, view, registryFor, now: () => this.now(), methodNotAllowed, registryOf, kubelet: this.deps.kubelet });
      }
      // A collection POST the type serves as another resource's create-only subresource (LegacyBindingREST).
      const createAs = type.createAsSubresource;
      if (createAs && info.name === undefined && request.method.toUpperCase() === 'POST' && info.namespace !== undefined) {
        const target = catalog.find(type.group, type.version, createAs.resource)!;
        return await serveCreateAsSubresource(target, createAs.handler, this.deps.registryFor(target), info.namespace, request, query, format, this.now());
      }
      return await this.dispatch(type, info, request, query, format, view);
    } catch (err) {
      // Admission's warnings go out with a refusal too (the warning recorder writes them with any answer).
      return statusResponse(toStatusError(err).status, format, admissionWarningsOf(request));
    }
  }

  private async dispatch(
    type: ResourceType,
    info: ResourceRequest,
    request: Request,
    query: URLSearchParams,
    format: OutputFormat,
    view: ObjectView | undefined,
  ): Promise<Response> {
    const registry = this.deps.registryFor(type);
    const { namespace, name } = info;
    const typeWarnings = type.requestWarnings ?? [];
    const respond = (body: unknown, status = 200, warnings: readonly string[] = []) =>
      objectResponse(body, { status, format, warnings: [...typeWarnings, ...warnings] });
    const method = request.method.toUpperCase();
    // Only a collection GET watches (requestinfo.go turns list into watch); a named GET with
    // watch=true is a plain get, as GetResource ignores the parameter.
    const watch = info.watchPrefix || (method === 'GET' && name === undefined && isWatchRequest(query));
    if (watch) {
      if (method !== 'GET') throw methodNotAllowed();
      return watchResponse(registry, namespace, name, watchOptionsFrom(query), {
        tuning: this.deps.watchTuning,
        view,
        query,
        servedWatches: this.deps.servedWatches,
        now: () => this.now(),
      });
    }
    if (name === undefined) {
      switch (method) {
        case 'GET': {
          const list = this.listBody(type, await registry.list(namespace, listOptionsFrom(query)));
          return respond(view ? renderView(view, type, { list }, query, this.now()) : list);
        }
        case 'POST': {
          if (type.namespaced && namespace === undefined) throw methodNotAllowed();
          const { body, options } = await readWriteRequest(request, query, bodyTarget(type));
          const result = await registry.create(namespace, body, options);
          return respond(result.object, 201, result.warnings);
        }
        case 'DELETE': {
          const options = { ...deleteOptionsFrom(query, await this.optionalBody(request, 'DeleteOptions')), ...admissionContextOf(request) };
          return respond(this.listBody(type, await registry.deleteCollection(namespace, listOptionsFrom(query), options)));
        }
      }
      throw methodNotAllowed();
    }
    switch (method) {
      case 'GET': {
        const object = await registry.get(namespace, name, getOptionsFrom(query));
        return respond(view ? renderView(view, type, { object }, query, this.now()) : object);
      }
      case 'PUT': {
        const { body, options } = await readWriteRequest(request, query, bodyTarget(type));
        const result = await registry.update(namespace, name, body, options);
        return respond(result.object, result.created ? 201 : 200, result.warnings);
      }
      case 'PATCH': {
        const contentType = patchContentTypeOf(request, type);
        const bytes = await readBody(request);
        const options = { ...patchOptionsFrom(query, request.headers.get('user-agent')), ...admissionContextOf(request) };
        const { patch, strictErrors, decoding } = await patcherFor(contentType, bytes, type, options);
        const result = await registry.patch(namespace, name, patch, { ...options, strictDecodeErrors: strictErrors, patchDecoding: decoding });
        return respond(result.object, result.created ? 201 : 200, result.warnings);
      }
      case 'DELETE': {
        const options = { ...deleteOptionsFrom(query, await this.optionalBody(request, 'DeleteOptions')), ...admissionContextOf(request) };
        const result = await registry.delete(namespace, name, options);
        if (isStatus(result.body)) return statusResponse(result.body, format, typeWarnings);
        return respond(result.body, result.code);
      }
    }
    throw methodNotAllowed();
  }

  /** A body that may be absent (DELETE): empty means "use the query". */
  private async optionalBody(request: Request, kind: string): Promise<Record<string, unknown> | undefined> {
    const bytes = await readBody(request);
    if (bytes.length === 0 || Buffer.from(bytes).toString('utf8').trim() === '') return undefined;
    return decodeObjectBody(bytes, contentTypeEssence(request.headers.get('content-type')), { apiVersion: 'meta.k8s.io/v1', kind, protobuf: true });
  }

  private listBody(type: ResourceType, list: ListResult): KubeList {
    const metadata: Record<string, unknown> = {};
    if (type.unstructured) metadata.continue = list.continue ?? '';
    else if (list.continue) metadata.continue = list.continue;
    if (list.remainingItemCount !== undefined) metadata.remainingItemCount = list.remainingItemCount;
    metadata.resourceVersion = list.resourceVersion;
    return { kind: type.listKind, apiVersion: apiVersionOf(type.group, type.version), metadata, items: list.items };
  }
}

const isStatus = (body: unknown): body is Status => (body as { kind?: string }).kind === 'Status' && (body as { apiVersion?: string }).apiVersion === 'v1';

/**
 * The storage key functions' check (registry/generic/registry/store.go NamespaceKeyFunc): a name
 * in the path can never be `.`, `..` or hold `/` or `%`, so it addresses no other object.
 */
function requireValidName(name: string): void {
  const msgs = isPathSegmentName(name);
  if (msgs.length) throw badRequest(`Name parameter invalid: ${goQuote(name)}: ${msgs.join(';')}`);
}

const COLLECTION_VERBS: Record<string, string> = { GET: 'list', POST: 'create', DELETE: 'deletecollection' };
const OBJECT_VERBS: Record<string, string> = { GET: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/**
 * The routes the apiserver's installer registers for a built-in are its discovery verbs: a
 * method with no route at a path that has others is go-restful's 405, a path with no route at
 * all its 404. A list route without watch support answers a watch with MethodNotSupported
 * (ListResource, for storage that is no rest.Watcher).
 */
function checkRoute(type: ResourceType, info: ResourceRequest, method: string, query: URLSearchParams): void {
  const verbs = new Set(type.verbs);
  if (info.watchPrefix) {
    if (!verbs.has('watch')) throw unknownPath();
    return;
  }
  const routes = info.name === undefined ? COLLECTION_VERBS : OBJECT_VERBS;
  const verb = routes[method];
  if (verb === 'list' && isWatchRequest(query) && !verbs.has('watch') && verbs.has('list')) {
    throw methodNotSupported({ group: type.group, resource: type.plural }, 'watch');
  }
  if (verb !== undefined && verbs.has(verb)) return;
  if (Object.values(routes).some((v) => verbs.has(v))) throw methodNotAllowed();
  throw unknownPath();
}

