// The OpenAPI v3 documents of /openapi/v3/<key>: one per served group version, plus the small
// documents the real index also lists for /api, /apis, /apis/<group> and /version.
import type { ResourceType } from '../resource-type.ts';
import { closeOverRefs, typeDefinitions } from './definitions.ts';
import { cap, gvKey, gvRoot, groupVersionNaming, META, toValidOperationId, type Json } from './names.ts';
import { renderPathsV3 } from './render-v3.ts';
import { resourceRoutes, type Route } from './routes.ts';

export interface DocumentInfo {
  /** gitVersion of the server, the info.version of built-in documents. */
  version: string;
}

/** Routes and definitions of one group version, shared by the v3 document and swagger 2.0. */
export function groupVersionParts(types: readonly ResourceType[], v2 = false): { routes: Route[]; definitions: Record<string, Json> } {
  const routes: Route[] = [];
  let definitions: Record<string, Json> = {};
  const first = types[0]!;
  if (!first.unstructured) {
    const { infix, tag } = groupVersionNaming(first.group, first.version);
    routes.push(getRoute(`${gvRoot(first.group, first.version)}/`, `get${infix}APIResources`, 'get available resources', tag, `${META}.APIResourceList`, ['application/json', 'application/yaml']));
  }
  for (const type of types) {
    const own = typeDefinitions(type, v2);
    definitions = { ...definitions, ...own.definitions };
    routes.push(...resourceRoutes(type, { strategicMergePatch: own.complete }));
  }
  return { routes, definitions };
}

export function groupVersionDocument(types: readonly ResourceType[], info: DocumentInfo): Json {
  const { routes, definitions } = groupVersionParts(types);
  const paths = renderPathsV3(routes);
  // Custom resource documents come from apiextensions-apiserver's builder, which titles them so.
  const title = types.every((t) => t.unstructured) ? { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' } : { title: 'Kubernetes', version: info.version };
  return { openapi: '3.0.0', info: title, paths, components: { schemas: closeOverRefs(definitions, [paths]) } };
}

/** A GET route of a non-resource discovery endpoint. */
export function getRoute(path: string, operationId: string, description: string, tag: string, schema: string, produces: string[]): Route {
  return { path, operations: [{ method: 'get', description, operationId, tags: [tag], params: [], produces, responses: [{ code: 200, description: 'OK', schema }] }] };
}

/** `api`, `apis`, `apis/<group>` for every built-in group, and `version`, with their routes. */
export function discoveryRoutes(types: readonly ResourceType[]): Map<string, Route[]> {
  const JSON_YAML = ['application/json', 'application/yaml'];
  const out = new Map<string, Route[]>();
  out.set('api', [getRoute('/api/', 'getCoreAPIVersions', 'get available API versions', 'core', `${META}.APIVersions`, JSON_YAML)]);
  out.set('apis', [getRoute('/apis/', 'getAPIVersions', 'get available API versions', 'apis', `${META}.APIGroupList`, JSON_YAML)]);
  // CRD groups get their /apis/<group> handler outside go-restful, so the real index has no entry for them.
  const groups = [...new Set(types.filter((t) => !t.unstructured && t.group !== '').map((t) => t.group))];
  for (const group of groups) {
    const name = toValidOperationId(group.replace(/\.k8s\.io$/, ''), false);
    out.set(`apis/${group}`, [getRoute(`/apis/${group}/`, `get${cap(name)}APIGroup`, 'get information of a group', name, `${META}.APIGroup`, JSON_YAML)]);
  }
  out.set('version', [getRoute('/version/', 'getCodeVersion', 'get the version information for this server', 'version', 'io.k8s.apimachinery.pkg.version.Info', ['application/json'])]);
  return out;
}

export function discoveryDocument(routes: Route[], info: DocumentInfo): Json {
  const paths = renderPathsV3(routes);
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: info.version }, paths, components: { schemas: closeOverRefs({}, [paths]) } };
}

/** Served types grouped by index key (`api/v1`, `apis/apps/v1`), in catalog order. */
export function typesByGroupVersion(types: readonly ResourceType[]): Map<string, ResourceType[]> {
  const out = new Map<string, ResourceType[]>();
  for (const t of types) {
    const key = gvKey(t.group, t.version);
    if (!out.has(key)) out.set(key, []);
    out.get(key)!.push(t);
  }
  return out;
}
