// The REST routes of one served resource as the apiserver's installer (built-ins) and the
// apiextensions OpenAPI builder (custom resources) register them, in a neutral form the v3 and v2
// renderers share: paths, operations, their parameters, bodies and responses.
import type { ResourceType } from '../resource-type.ts';
import { articleFor, cap, definitionName, groupVersionNaming, gvRoot, META, SCALE } from './names.ts';

export type ParamType = 'string' | 'boolean' | 'integer';

export interface Param {
  name: string;
  in: 'query' | 'path';
  type: ParamType;
  description?: string;
  required?: boolean;
}

export interface Operation {
  method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  description: string;
  operationId: string;
  tags: string[];
  /** x-kubernetes-action; absent on non-resource routes. */
  action?: string;
  gvk?: { group: string; kind: string; version: string };
  params: Param[];
  body?: { schema: string; consumes: string[]; required: boolean };
  produces: string[];
  responses: { code: number; description: string; schema: string }[];
}

export interface Route {
  path: string;
  operations: Operation[];
}

const q = (name: string, type: ParamType, description: string): Param => ({ name, in: 'query', type, description });

const PRETTY = q('pretty', 'string', "If 'true', then the output is pretty printed.");
const NAMESPACE: Param = { name: 'namespace', in: 'path', type: 'string', required: true, description: 'object name and auth scope, such as for teams and projects' };
const nameParam = (kind: string): Param => ({ name: 'name', in: 'path', type: 'string', required: true, description: `name of the ${kind}` });

const DRY_RUN = q('dryRun', 'string', 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed');
const FIELD_MANAGER = q('fieldManager', 'string', 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.');
const FIELD_MANAGER_PATCH = { ...FIELD_MANAGER, description: `${FIELD_MANAGER.description} This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).` };
const FIELD_VALIDATION = q('fieldValidation', 'string', 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: ignores unknown/duplicate fields. - Warn: responds with a warning for each unknown/duplicate field, but successfully serves the request. - Strict: fails the request on unknown/duplicate fields.');
const FORCE = q('force', 'boolean', 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.');

const LIST_PARAMS: Param[] = [
  q('allowWatchBookmarks', 'boolean', 'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion.'),
  q('continue', 'string', 'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue).'),
  q('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
  q('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
  q('limit', 'integer', 'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results.'),
  q('resourceVersion', 'string', 'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset'),
  q('resourceVersionMatch', 'string', 'resourceVersionMatch determines how resourceVersion is applied to list calls. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset'),
  q('sendInitialEvents', 'boolean', '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection.'),
  q('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'),
  q('watch', 'boolean', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.'),
];
const DELETE_PARAMS: Param[] = [
  q('gracePeriodSeconds', 'integer', 'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately.'),
  q('ignoreStoreReadErrorWithClusterBreakingPotential', 'boolean', 'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.'),
  q('orphanDependents', 'boolean', 'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned.'),
  q('propagationPolicy', 'string', "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground."),
  DRY_RUN,
];
const DELETECOLLECTION_LIST_PARAMS = LIST_PARAMS.filter((p) => !['allowWatchBookmarks', 'watch', 'sendInitialEvents'].includes(p.name));

const JSON_YAML = ['application/json', 'application/yaml'];
const LIST_PRODUCES = ['application/json', 'application/json;stream=watch', 'application/yaml'];
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];
const SMP = 'application/strategic-merge-patch+json';

export interface RouteOptions {
  /** List strategic-merge-patch among a PATCH's body types (built-ins whose schema supports it). */
  strategicMergePatch: boolean;
}

/** Every route of one resource type (collection, item, subresources, and for built-ins the watch paths). */
export function resourceRoutes(type: ResourceType, options: RouteOptions): Route[] {
  const builtin = !type.unstructured;
  const verbs = new Set(type.verbs);
  const { infix, tag } = groupVersionNaming(type.group, type.version);
  const root = gvRoot(type.group, type.version);
  const ns = type.namespaced ? 'Namespaced' : '';
  const kindSchema = definitionName(type, type.kind);
  const listSchema = definitionName(type, type.listKind);
  const gvk = { group: type.group, kind: type.kind, version: type.version };
  const scope = type.namespaced ? [NAMESPACE] : [];
  const collection = type.namespaced ? `${root}/namespaces/{namespace}/${type.plural}` : `${root}/${type.plural}`;
  const consumes = builtin ? ['*/*'] : JSON_YAML;
  const patchTypes = builtin && options.strategicMergePatch ? [PATCH_TYPES[0]!, PATCH_TYPES[1]!, SMP, PATCH_TYPES[2]!] : PATCH_TYPES;
  const listProduces = builtin ? LIST_PRODUCES : JSON_YAML;
  const deleteSchema = type.returnDeletedObject && builtin ? kindSchema : `${META}.Status`;

  const op = (o: Omit<Operation, 'tags' | 'produces' | 'operationId'> & { id: string; produces?: string[] }): Operation => {
    const { id, produces, ...rest } = o;
    // `<verb>|<rest>` becomes <verb><Group><Version><rest>, e.g. patchAppsV1NamespacedDeploymentScale.
    const [verb, name] = id.split('|') as [string, string];
    return { ...rest, operationId: `${verb}${infix}${name}`, tags: [tag], produces: produces ?? JSON_YAML };
  };
  const routes: Route[] = [];

  if (type.namespaced && verbs.has('list')) {
    routes.push({
      path: `${root}/${type.plural}`,
      operations: [
        op({ method: 'get', id: `list|${type.kind}ForAllNamespaces`, description: listDescription(type), action: 'list', gvk, params: [...LIST_PARAMS, PRETTY], produces: listProduces, responses: [ok(listSchema)] }),
      ],
    });
  }

  const collectionOps: Operation[] = [];
  if (verbs.has('deletecollection')) {
    collectionOps.push(
      op({
        method: 'delete',
        id: `deleteCollection|${ns}${type.kind}`,
        description: `delete collection of ${type.kind}`,
        action: 'deletecollection',
        gvk,
        params: [...scope, PRETTY, ...DELETE_PARAMS, ...DELETECOLLECTION_LIST_PARAMS],
        ...(builtin ? { body: { schema: `${META}.DeleteOptions`, consumes, required: false } } : {}),
        responses: [ok(`${META}.Status`)],
      }),
    );
  }
  if (verbs.has('list')) {
    collectionOps.push(op({ method: 'get', id: `list|${ns}${type.kind}`, description: listDescription(type), action: 'list', gvk, params: [...scope, PRETTY, ...LIST_PARAMS], produces: listProduces, responses: [ok(listSchema)] }));
  }
  if (verbs.has('create')) {
    collectionOps.push(
      op({
        method: 'post',
        id: `create|${ns}${type.kind}`,
        description: `create${articleFor(type.kind)}${type.kind}`,
        action: 'post',
        gvk,
        params: [...scope, PRETTY, DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
        body: { schema: kindSchema, consumes, required: true },
        responses: [ok(kindSchema), { code: 201, description: 'Created', schema: kindSchema }, { code: 202, description: 'Accepted', schema: kindSchema }],
      }),
    );
  }
  if (collectionOps.length) routes.push({ path: collection, operations: collectionOps });

  const item = `${collection}/{name}`;
  const itemParams = [nameParam(type.kind), ...scope, PRETTY];
  const itemOps: Operation[] = [];
  if (verbs.has('delete')) {
    itemOps.push(
      op({
        method: 'delete',
        id: `delete|${ns}${type.kind}`,
        description: `delete${articleFor(type.kind)}${type.kind}`,
        action: 'delete',
        gvk,
        params: [...itemParams, ...DELETE_PARAMS],
        body: { schema: `${META}.DeleteOptions`, consumes, required: false },
        responses: [ok(deleteSchema), { code: 202, description: 'Accepted', schema: deleteSchema }],
      }),
    );
  }
  if (verbs.has('get')) itemOps.push(op({ method: 'get', id: `read|${ns}${type.kind}`, description: `read the specified ${type.kind}`, action: 'get', gvk, params: itemParams, responses: [ok(kindSchema)] }));
  itemOps.push(...writeOps(type, '', kindSchema, gvk, itemParams, verbs));
  if (itemOps.length) routes.push({ path: item, operations: itemOps });

  for (const sub of type.subresources) {
    if (sub !== 'status' && sub !== 'scale') continue;
    const schema = sub === 'scale' ? SCALE : kindSchema;
    const subGvk = sub === 'scale' ? { group: 'autoscaling', kind: 'Scale', version: 'v1' } : gvk;
    const params = [nameParam(sub === 'scale' ? 'Scale' : type.kind), ...scope, PRETTY];
    const all = new Set(['get', 'update', 'patch']);
    routes.push({
      path: `${item}/${sub}`,
      operations: [
        op({ method: 'get', id: `read|${ns}${type.kind}${cap(sub)}`, description: `read ${sub} of the specified ${type.kind}`, action: 'get', gvk: subGvk, params, responses: [ok(schema)] }),
        ...writeOps(type, sub, schema, subGvk, params, all),
      ],
    });
  }

  if (builtin && verbs.has('watch')) routes.push(...watchRoutes(type, root, infix, tag, gvk, scope));
  return routes;

  function writeOps(t: ResourceType, sub: string, schema: string, g: Operation['gvk'], params: Param[], allowed: Set<string>): Operation[] {
    const out: Operation[] = [];
    const of = sub ? ` ${sub} of` : '';
    const suffix = cap(sub);
    if (allowed.has('patch')) {
      out.push(
        op({
          method: 'patch',
          id: `patch|${ns}${t.kind}${suffix}`,
          description: `partially update${of} the specified ${t.kind}`,
          action: 'patch',
          gvk: g,
          params: [...params, DRY_RUN, FORCE, FIELD_MANAGER_PATCH, FIELD_VALIDATION],
          body: { schema: `${META}.Patch`, consumes: sub === 'scale' && builtin ? [PATCH_TYPES[0]!, PATCH_TYPES[1]!, SMP, PATCH_TYPES[2]!] : patchTypes, required: true },
          responses: builtin ? [ok(schema), { code: 201, description: 'Created', schema }] : [ok(schema)],
        }),
      );
    }
    if (allowed.has('update')) {
      out.push(
        op({
          method: 'put',
          id: `replace|${ns}${t.kind}${suffix}`,
          description: `replace${of} the specified ${t.kind}`,
          action: 'put',
          gvk: g,
          params: [...params, DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION],
          body: { schema, consumes, required: true },
          responses: [ok(schema), { code: 201, description: 'Created', schema }],
        }),
      );
    }
    return out;
  }
}

const ok = (schema: string) => ({ code: 200, description: 'OK', schema });

const listDescription = (type: ResourceType): string => (type.unstructured ? `list objects of kind ${type.kind}` : `list or watch objects of kind ${type.kind}`);

/** The deprecated /watch/ paths the built-in installer still registers (and kubefake serves). */
function watchRoutes(type: ResourceType, root: string, infix: string, tag: string, gvk: Operation['gvk'], scope: Param[]): Route[] {
  const event = `${META}.WatchEvent`;
  const base = { tags: [tag], gvk, produces: LIST_PRODUCES, responses: [ok(event)] };
  const listParams = [...LIST_PARAMS, PRETTY];
  const ns = type.namespaced ? 'Namespaced' : '';
  const prefix = type.namespaced ? `${root}/watch/namespaces/{namespace}/${type.plural}` : `${root}/watch/${type.plural}`;
  const listDesc = `watch individual changes to a list of ${type.kind}. deprecated: use the 'watch' parameter with a list operation instead.`;
  const routes: Route[] = [];
  if (type.namespaced) {
    routes.push({
      path: `${root}/watch/${type.plural}`,
      operations: [{ ...base, method: 'get', description: listDesc, operationId: `watch${infix}${type.kind}ListForAllNamespaces`, action: 'watchlist', params: listParams }],
    });
  }
  routes.push({
    path: prefix,
    operations: [{ ...base, method: 'get', description: listDesc, operationId: `watch${infix}${ns}${type.kind}List`, action: 'watchlist', params: [...scope, ...listParams] }],
  });
  routes.push({
    path: `${prefix}/{name}`,
    operations: [
      {
        ...base,
        method: 'get',
        description: `watch changes to an object of kind ${type.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
        operationId: `watch${infix}${ns}${type.kind}`,
        action: 'watch',
        params: [nameParam(type.kind), ...scope, ...listParams],
      },
    ],
  });
  return routes;
}
