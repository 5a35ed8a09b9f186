// /openapi/v2: one swagger 2.0 document for everything served, built from the same routes and
// definitions as the v3 documents (refs under #/definitions/, $ref siblings not wrapped in allOf,
// custom resources in their v2 flavour).
import type { ResourceType } from '../resource-type.ts';
import { closeOverRefs } from './definitions.ts';
import { discoveryRoutes, groupVersionParts, typesByGroupVersion, type DocumentInfo } from './documents.ts';
import type { Json } from './names.ts';
import { commonParams } from './render-v3.ts';
import type { Operation, Param, Route } from './routes.ts';
import { sortKeys, V3_PREFIX } from './schema-helpers.ts';

const V2_PREFIX = '#/definitions/';

export function swaggerDocument(types: readonly ResourceType[], info: DocumentInfo): Json {
  const routes: Route[] = [];
  let definitions: Record<string, Json> = {};
  for (const [key, discovery] of discoveryRoutes(types)) if (key !== 'version') routes.push(...discovery);
  for (const group of typesByGroupVersion(types).values()) {
    const parts = groupVersionParts(group, true);
    routes.push(...parts.routes);
    definitions = { ...definitions, ...parts.definitions };
  }
  routes.push(...discoveryRoutes([]).get('version')!);
  const paths = renderPathsV2(routes);
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: info.version },
    paths,
    definitions: toV2(closeOverRefs(definitions, routes.flatMap(refsOf))) as Json,
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  };
}

/** $ref nodes for every schema a route mentions, so closeOverRefs pulls their definitions in. */
const refsOf = (route: Route): Json[] =>
  route.operations.flatMap((op) => [...op.responses.map((r) => r.schema), ...(op.body ? [op.body.schema] : [])]).map((name) => ({ $ref: V3_PREFIX + name }));

function param(p: Param): Json {
  const out: Json = { uniqueItems: true, type: p.type };
  if (p.description) out.description = p.description;
  out.name = p.name;
  out.in = p.in;
  if (p.required) out.required = true;
  return out;
}

function operation(op: Operation, params: Param[]): Json {
  const parameters = params.map(param);
  if (op.body) parameters.unshift({ name: 'body', in: 'body', ...(op.body.required ? { required: true } : {}), schema: { $ref: V2_PREFIX + op.body.schema } });
  const out: Json = {
    description: op.description,
    consumes: op.body?.consumes ?? ['*/*'],
    produces: op.produces,
    schemes: ['https'],
    tags: op.tags,
    operationId: op.operationId,
  };
  if (parameters.length) out.parameters = parameters;
  out.responses = {
    ...Object.fromEntries(op.responses.map((r) => [String(r.code), { description: r.description, schema: { $ref: V2_PREFIX + r.schema } }])),
    '401': { description: 'Unauthorized' },
  };
  if (op.action) out['x-kubernetes-action'] = op.action;
  if (op.gvk) out['x-kubernetes-group-version-kind'] = op.gvk;
  return out;
}

function renderPathsV2(routes: Route[]): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const { common, own } = commonParams(route);
    const item: Json = {};
    for (const op of route.operations) item[op.method] = operation(op, own.get(op)!);
    if (common.length) item.parameters = common.map(param);
    paths[route.path] = item;
  }
  return sortKeys(paths);
}

/** v3 schema → v2: refs under #/definitions/, and `allOf: [{$ref}]` with siblings back to a sibling-carrying $ref. */
export function toV2(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toV2);
  if (!node || typeof node !== 'object') return node;
  const obj = node as Json;
  const allOf = obj.allOf as Json[] | undefined;
  if (allOf?.length === 1 && Object.keys(allOf[0]!).length === 1 && typeof allOf[0]!.$ref === 'string') {
    const { allOf: _wrapped, ...rest } = obj;
    return toV2({ $ref: allOf[0]!.$ref, ...rest });
  }
  return Object.fromEntries(
    Object.entries(obj).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace(V3_PREFIX, V2_PREFIX) : toV2(v)]),
  );
}
