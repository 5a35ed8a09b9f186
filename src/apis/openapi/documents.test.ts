import { describe, expect, it } from 'vitest';
import { builtinResourceTypes } from '../builtin/index.ts';
import { builtinKindSchemas } from './builtin-schemas.ts';
import { discoveryDocument, discoveryRoutes, groupVersionDocument, typesByGroupVersion } from './documents.ts';
import type { Json } from './names.ts';
import { cronTabType } from './test-fixtures.ts';

type Op = Json & { parameters?: { name: string; in: string }[]; requestBody?: { content: Record<string, unknown> } };
type Doc = { openapi: string; info: Json; paths: Record<string, Record<string, Op> & { parameters?: { name: string }[] }>; components: { schemas: Record<string, Json> } };

const info = { version: 'v1.36.0' };
const builtins = typesByGroupVersion(builtinResourceTypes());
const doc = (key: string): Doc => groupVersionDocument(builtins.get(key)!, info) as Doc;
const crontabs = groupVersionDocument([cronTabType()], info) as Doc;

const gvk = (group: string, version: string, kind: string) => ({ group, version, kind });
const sameGvk = (a: unknown, b: { group: string; version: string; kind: string }) => {
  const x = a as Record<string, string> | undefined;
  return !!x && x.group === b.group && x.version === b.version && x.kind === b.kind;
};

/** cli-runtime queryParamVerifierV3.supportsQueryParamV3: the first PATCH with the GVK must list the parameter. */
function supportsQueryParam(d: Doc, target: ReturnType<typeof gvk>, param: string): boolean {
  for (const item of Object.values(d.paths)) {
    const op = item.patch;
    if (!op || !sameGvk(op['x-kubernetes-group-version-kind'], target)) continue;
    return (op.parameters ?? []).some((p) => p.name === param);
  }
  return false;
}

/** kubectl apply's gvkSupportsPatchOpenAPIV3: whether client-side apply computes SMP from this document. */
function patchesWithSmp(d: Doc, target: ReturnType<typeof gvk>): boolean {
  const ops = Object.values(d.paths).flatMap((item) => (item.patch && sameGvk(item.patch['x-kubernetes-group-version-kind'], target) ? [item.patch] : []));
  expect(ops.length).toBeGreaterThan(0);
  const answers = new Set(ops.map((op) => 'application/strategic-merge-patch+json' in (op.requestBody?.content ?? {})));
  expect(answers.size, 'every PATCH of a kind must agree (kubectl takes whichever it meets first)').toBe(1);
  return [...answers][0]!;
}

/** Every $ref of the document resolves inside components.schemas. */
function danglingRefs(d: unknown): string[] {
  const names = new Set(Object.keys((d as Doc).components.schemas));
  const out: string[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) n.forEach(walk);
    else if (n && typeof n === 'object')
      for (const [k, v] of Object.entries(n)) {
        // JSONSchemaProps has a property named `$ref`: only a string is a reference.
        if (k === '$ref' && typeof v === 'string') {
          const name = String(v).replace('#/components/schemas/', '');
          if (!names.has(name)) out.push(String(v));
        } else walk(v);
      }
  };
  walk(d);
  return out;
}

describe('group version documents', () => {
  it('lets kubectl verify fieldValidation for every served built-in kind and for Namespace (its CRD fallback)', () => {
    for (const [key, types] of builtins) {
      const d = doc(key);
      // Kinds without PATCH (the create-only reviews, bindings, componentstatuses) have no operation to check.
      for (const t of types.filter((x) => x.verbs.includes('patch'))) expect(supportsQueryParam(d, gvk(t.group, t.version, t.kind), 'fieldValidation'), `${t.kind}`).toBe(true);
    }
    expect(supportsQueryParam(doc('api/v1'), gvk('', 'v1', 'Namespace'), 'fieldValidation')).toBe(true);
  });

  it('lets kubectl verify fieldValidation for a custom resource', () => {
    expect(supportsQueryParam(crontabs, gvk('stable.example.com', 'v1', 'CronTab'), 'fieldValidation')).toBe(true);
  });

  it('lists the patch types the server takes: never strategic merge for custom resources', () => {
    const item = crontabs.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}']!;
    expect(Object.keys(item.patch!.requestBody!.content)).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    expect(item.patch!.parameters!.map((p) => p.name)).toEqual(['dryRun', 'force', 'fieldManager', 'fieldValidation']);
    expect(patchesWithSmp(crontabs, gvk('stable.example.com', 'v1', 'CronTab'))).toBe(false);
  });

  it('lists strategic merge patch for built-ins whose schema kubectl can compute it from, and not for the coarse ones', () => {
    const cm = doc('api/v1').paths['/api/v1/namespaces/{namespace}/configmaps/{name}']!.patch!;
    expect(Object.keys(cm.requestBody!.content)).toEqual([
      'application/json-patch+json',
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    expect(patchesWithSmp(doc('api/v1'), gvk('', 'v1', 'ConfigMap'))).toBe(true);
    expect(patchesWithSmp(doc('apis/rbac.authorization.k8s.io/v1'), gvk('rbac.authorization.k8s.io', 'v1', 'Role'))).toBe(true);
    // Generated from the Go types, the Deployment schema is complete: kubectl computes SMP from it.
    expect(patchesWithSmp(doc('apis/apps/v1'), gvk('apps', 'v1', 'Deployment'))).toBe(true);
    // A kind the Go types do not describe would make kubectl warn "unable to find api field";
    // it stays open and without SMP listed, so kubectl computes SMP from its compiled-in types.
    const deployments = builtinResourceTypes().find((t) => t.kind === 'Deployment')!;
    const coarse = builtinKindSchemas({ ...deployments, kind: 'Undescribed' });
    expect(coarse.complete).toBe(false);
    expect(coarse.definitions['io.k8s.api.apps.v1.Undescribed']).toMatchObject({ 'x-kubernetes-preserve-unknown-fields': true });
    const scale = doc('apis/apps/v1').paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale']!.patch!;
    expect('application/strategic-merge-patch+json' in scale.requestBody!.content).toBe(true);
  });

  it('has the collection, item, all-namespaces and subresource paths of a namespaced custom resource, with actions', () => {
    const root = '/apis/stable.example.com/v1';
    expect(Object.keys(crontabs.paths)).toEqual([
      `${root}/crontabs`,
      `${root}/namespaces/{namespace}/crontabs`,
      `${root}/namespaces/{namespace}/crontabs/{name}`,
      `${root}/namespaces/{namespace}/crontabs/{name}/scale`,
      `${root}/namespaces/{namespace}/crontabs/{name}/status`,
    ]);
    const actions = (path: string) => Object.fromEntries(Object.entries(crontabs.paths[path]!).filter(([k]) => k !== 'parameters').map(([m, op]) => [m, (op as Op)['x-kubernetes-action']]));
    expect(actions(`${root}/crontabs`)).toEqual({ get: 'list' });
    expect(actions(`${root}/namespaces/{namespace}/crontabs`)).toEqual({ delete: 'deletecollection', get: 'list', post: 'post' });
    expect(actions(`${root}/namespaces/{namespace}/crontabs/{name}`)).toEqual({ delete: 'delete', get: 'get', patch: 'patch', put: 'put' });
    const scale = crontabs.paths[`${root}/namespaces/{namespace}/crontabs/{name}/scale`]!;
    expect(scale.get!['x-kubernetes-group-version-kind']).toEqual({ group: 'autoscaling', kind: 'Scale', version: 'v1' });
    expect(scale.get!.operationId).toBe('readStableExampleComV1NamespacedCronTabScale');
    expect(crontabs.paths[`${root}/namespaces/{namespace}/crontabs/{name}/status`]!.patch!['x-kubernetes-group-version-kind']).toEqual({
      group: 'stable.example.com',
      kind: 'CronTab',
      version: 'v1',
    });
  });

  it('puts the parameters every operation of a path shares on the path item', () => {
    const item = crontabs.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}']!;
    expect(item.parameters!.map((p) => p.name)).toEqual(['name', 'namespace', 'pretty']);
    expect(item.get!.parameters).toBeUndefined();
    const all = crontabs.paths['/apis/stable.example.com/v1/crontabs']!;
    expect(all.parameters!.map((p) => p.name)).toContain('labelSelector');
  });

  it('gives cluster-scoped built-ins no namespace paths and built-ins their watch paths', () => {
    const paths = Object.keys(doc('api/v1').paths).filter((p) => p.includes('/namespaces'));
    expect(paths).toContain('/api/v1/namespaces/{name}');
    expect(paths).toContain('/api/v1/namespaces/{name}/status');
    expect(paths).toContain('/api/v1/watch/namespaces/{namespace}/configmaps/{name}');
    expect(Object.keys(doc('api/v1').paths)).toContain('/api/v1/nodes/{name}');
    expect(Object.keys(doc('api/v1').paths)).not.toContain('/api/v1/namespaces/{namespace}/nodes');
    const watch = doc('apis/apps/v1').paths['/apis/apps/v1/watch/deployments']!.get!;
    expect(watch['x-kubernetes-action']).toBe('watchlist');
    expect(watch.operationId).toBe('watchAppsV1DeploymentListForAllNamespaces');
    expect(doc('api/v1').paths['/api/v1/namespaces/{namespace}/configmaps']!.post!.operationId).toBe('createCoreV1NamespacedConfigMap');
  });

  it('carries the kind schemas explain needs, with the GVK array and ObjectMeta', () => {
    const cronTab = crontabs.components.schemas['com.example.stable.v1.CronTab']!;
    expect(cronTab['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', kind: 'CronTab', version: 'v1' }]);
    expect(Object.keys(crontabs.components.schemas)).toEqual(
      expect.arrayContaining([
        'com.example.stable.v1.CronTabList',
        'io.k8s.api.autoscaling.v1.Scale',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
        'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
        'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
        'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
        'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
      ]),
    );
    const deployment = doc('apis/apps/v1').components.schemas['io.k8s.api.apps.v1.Deployment']!;
    expect(deployment).toMatchObject({ type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'apps', kind: 'Deployment', version: 'v1' }] });
    expect(Object.keys(deployment.properties as Json)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect((deployment.properties as Record<string, Json>).spec).toEqual({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentSpec' }],
      default: {},
      description: 'Specification of the desired behavior of the Deployment.',
    });
    const schemas = doc('apis/apps/v1').components.schemas;
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['io.k8s.api.apps.v1.DeploymentSpec', 'io.k8s.api.core.v1.PodTemplateSpec', 'io.k8s.api.core.v1.Container']));
  });

  it('has no dangling $ref in any document', () => {
    expect(danglingRefs(crontabs)).toEqual([]);
    for (const key of builtins.keys()) expect(danglingRefs(doc(key)), key).toEqual([]);
    for (const routes of discoveryRoutes(builtinResourceTypes()).values()) expect(danglingRefs(discoveryDocument(routes, info))).toEqual([]);
  });

  it('titles documents like the servers that build them', () => {
    expect(doc('api/v1')).toMatchObject({ openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.36.0' } });
    expect(crontabs.info).toEqual({ title: 'Kubernetes CRD Swagger', version: 'v0.1.0' });
  });

  it('lists the discovery documents the real index has for built-in groups only', () => {
    const keys = [...discoveryRoutes([...builtinResourceTypes(), cronTabType()]).keys()];
    expect(keys).toContain('apis/apps');
    expect(keys).toContain('version');
    expect(keys).not.toContain('apis/stable.example.com');
  });
});
