// Renders routes as OpenAPI 3.0 path items, as kube-openapi builder3 does: parameters every
// operation of a path shares move up to the path item, x-kubernetes-* metadata on operations.
import type { Json } from './names.ts';
import type { Operation, Param, Route } from './routes.ts';
import { sortKeys, V3_PREFIX } from './schema-helpers.ts';

const paramKey = (p: Param) => `${p.in}:${p.name}`;

/** Splits each operation's parameters into the path item's common ones and its own. */
export function commonParams(route: Route): { common: Param[]; own: Map<Operation, Param[]> } {
  const counts = new Map<string, number>();
  for (const op of route.operations) for (const p of op.params) counts.set(paramKey(p), (counts.get(paramKey(p)) ?? 0) + 1);
  const isCommon = (p: Param) => counts.get(paramKey(p)) === route.operations.length;
  const first = route.operations[0]?.params ?? [];
  const common = first.filter(isCommon).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const own = new Map(route.operations.map((op) => [op, op.params.filter((p) => !isCommon(p))]));
  return { common, own };
}

function param(p: Param): Json {
  const out: Json = {};
  if (p.description) out.description = p.description;
  out.in = p.in;
  out.name = p.name;
  if (p.required) out.required = true;
  out.schema = { type: p.type, uniqueItems: true };
  return out;
}

const content = (types: string[], schema: string): Json => Object.fromEntries(types.map((t) => [t, { schema: { $ref: V3_PREFIX + schema } }]));

function operation(op: Operation, params: Param[]): Json {
  const out: Json = { description: op.description, operationId: op.operationId };
  if (params.length) out.parameters = params.map(param);
  if (op.body) out.requestBody = { content: content(op.body.consumes, op.body.schema), ...(op.body.required ? { required: true } : {}) };
  out.responses = Object.fromEntries(op.responses.map((r) => [String(r.code), { content: content(op.produces, r.schema), description: r.description }]));
  out.tags = op.tags;
  if (op.action) out['x-kubernetes-action'] = op.action;
  if (op.gvk) out['x-kubernetes-group-version-kind'] = op.gvk;
  return out;
}

export function renderPathsV3(routes: Route[]): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const { common, own } = commonParams(route);
    const item: Json = {};
    for (const op of route.operations) item[op.method] = operation(op, own.get(op)!);
    if (common.length) item.parameters = common.map(param);
    paths[route.path] = sortKeys(item);
  }
  return sortKeys(paths);
}
