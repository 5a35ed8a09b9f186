import { describe, expect, it } from 'vitest';
import { builtinResourceTypes, createBuiltinContext } from './index.ts';
import { typesFor } from './test-helpers.ts';

const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

describe('builtinResourceTypes', () => {
  it('covers exactly the served built-ins, in discovery order', () => {
    expect(builtinResourceTypes().map((t) => `${t.group || 'core'}/${t.version}/${t.plural}`)).toEqual([
      'core/v1/configmaps',
      'core/v1/endpoints',
      'core/v1/events',
      'core/v1/namespaces',
      'core/v1/nodes',
      'core/v1/persistentvolumeclaims',
      'core/v1/pods',
      'core/v1/secrets',
      'core/v1/serviceaccounts',
      'core/v1/services',
      'apps/v1/daemonsets',
      'apps/v1/deployments',
      'apps/v1/replicasets',
      'apps/v1/statefulsets',
      'events.k8s.io/v1/events',
      'batch/v1/cronjobs',
      'batch/v1/jobs',
      'rbac.authorization.k8s.io/v1/clusterrolebindings',
      'rbac.authorization.k8s.io/v1/clusterroles',
      'rbac.authorization.k8s.io/v1/rolebindings',
      'rbac.authorization.k8s.io/v1/roles',
      'apiextensions.k8s.io/v1/customresourcedefinitions',
      'coordination.k8s.io/v1/leases',
    ]);
  });

  it('builds fresh objects on every call', () => {
    const a = builtinResourceTypes();
    const b = builtinResourceTypes();
    expect(a[0]).not.toBe(b[0]);
    expect(a[0]!.verbs).not.toBe(b[0]!.verbs);
  });

  it('serves discovery data as api/discovery/api__v1.json lists it', () => {
    const type = typesFor();
    expect(type('', 'pods')).toMatchObject({
      kind: 'Pod',
      listKind: 'PodList',
      singular: 'pod',
      namespaced: true,
      shortNames: ['po'],
      categories: ['all'],
      verbs: ALL,
      subresources: ['status'],
    });
    expect(type('', 'namespaces')).toMatchObject({
      singular: 'namespace',
      namespaced: false,
      shortNames: ['ns'],
      categories: [],
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      nameRule: 'dns1123-label',
    });
    expect(type('', 'secrets')).toMatchObject({ shortNames: [], categories: [], verbs: ALL, subresources: [] });
    expect(type('', 'endpoints')).toMatchObject({ kind: 'Endpoints', singular: 'endpoints', shortNames: ['ep'] });
    expect(type('', 'services')).toMatchObject({ shortNames: ['svc'], categories: ['all'], nameRule: 'dns1035-label' });
    expect(type('', 'persistentvolumeclaims')).toMatchObject({ shortNames: ['pvc'], subresources: ['status'] });
  });

  it('serves the group discovery data', () => {
    const type = typesFor();
    expect(type('apps', 'deployments')).toMatchObject({ shortNames: ['deploy'], categories: ['all'], subresources: ['scale', 'status'], verbs: ALL });
    expect(type('apps', 'daemonsets')).toMatchObject({ shortNames: ['ds'], subresources: ['status'] });
    expect(type('batch', 'jobs')).toMatchObject({ shortNames: [], categories: ['all'] });
    expect(type('batch', 'cronjobs')).toMatchObject({ shortNames: ['cj'], categories: ['all'] });
    expect(type('coordination.k8s.io', 'leases')).toMatchObject({ kind: 'Lease', shortNames: [], categories: [], verbs: ALL });
    expect(type('events.k8s.io', 'events')).toMatchObject({ kind: 'Event', shortNames: ['ev'], nameRule: 'dns1123-subdomain' });
    expect(type('rbac.authorization.k8s.io', 'clusterroles')).toMatchObject({ namespaced: false, shortNames: [], nameRule: 'path-segment' });
    expect(type('apiextensions.k8s.io', 'customresourcedefinitions')).toMatchObject({
      singular: 'customresourcedefinition',
      namespaced: false,
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      subresources: ['status'],
    });
  });

  it('carries the stores and strategies update/delete flags', () => {
    const type = typesFor();
    const flags = (group: string, plural: string) => {
      const t = type(group, plural);
      return [t.returnDeletedObject, t.allowCreateOnUpdate, t.allowUnconditionalUpdate];
    };
    expect(flags('', 'pods')).toEqual([true, false, true]);
    expect(flags('', 'namespaces')).toEqual([true, false, true]);
    expect(flags('', 'services')).toEqual([true, true, true]);
    expect(flags('', 'serviceaccounts')).toEqual([true, false, true]);
    expect(flags('', 'persistentvolumeclaims')).toEqual([true, false, true]);
    expect(flags('', 'configmaps')).toEqual([false, false, true]);
    expect(flags('', 'endpoints')).toEqual([false, true, true]);
    expect(flags('', 'events')).toEqual([false, true, true]);
    expect(flags('', 'nodes')).toEqual([false, false, true]);
    expect(flags('coordination.k8s.io', 'leases')).toEqual([false, true, false]);
    expect(flags('rbac.authorization.k8s.io', 'roles')).toEqual([false, true, true]);
    expect(flags('apiextensions.k8s.io', 'customresourcedefinitions')).toEqual([false, false, false]);
    expect(flags('apps', 'deployments')).toEqual([false, false, true]);
  });

  it('uses the default field-label conversion where the group registers none', () => {
    const type = typesFor();
    for (const [g, p] of [['', 'configmaps'], ['apps', 'replicasets'], ['apps', 'deployments'], ['batch', 'cronjobs'], ['coordination.k8s.io', 'leases']] as const) {
      expect(type(g, p).fieldSelectors).toBeNull();
    }
  });

  it('keeps Service IP allocation per context', () => {
    const first = builtinResourceTypes(createBuiltinContext()).find((t) => t.plural === 'services')!;
    const second = builtinResourceTypes(createBuiltinContext()).find((t) => t.plural === 'services')!;
    const svc = () => ({ metadata: { name: 's', namespace: 'default' }, spec: { ports: [{ port: 80 }] } });
    const a = svc();
    const b = svc();
    first.strategy.prepareForCreate!(a);
    second.strategy.prepareForCreate!(b);
    expect((a.spec as Record<string, unknown>).clusterIP).toBe((b.spec as Record<string, unknown>).clusterIP);
  });
});
