import { describe, expect, it } from 'vitest';
import { BUILTIN_RESOURCES } from '../../generated/builtin-catalogue.ts';
import { builtinResourceTypes, createBuiltinContext } from './index.ts';
import { DEFAULT_APIS_GROUP_VERSIONS } from '../../../test/support/default-group-versions.ts';
import { typesFor } from './test-helpers.ts';

const ALL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

describe('builtinResourceTypes', () => {
  it('serves every resource of the generated catalogue once, in its order', () => {
    const keys = (list: readonly { group: string; version: string }[], plural: (x: never) => string) => list.map((t) => `${t.group}/${t.version}/${plural(t as never)}`);
    const served = keys(builtinResourceTypes(), (t: { plural: string }) => t.plural);
    expect(served).toEqual(keys(BUILTIN_RESOURCES, (r: { resource: string }) => r.resource));
    expect(new Set(served).size).toBe(served.length);
  });

  // Facts checked against kube-apiserver itself rather than the generator's input: a v1.36 server
  // with default flags serves these, in this order, and none of the beta/alpha versions.
  it('orders groups as /apis lists them and serves only the default-enabled versions', () => {
    const groupVersions = [...new Set(builtinResourceTypes().map((t) => `${t.group || 'core'}/${t.version}`))];
    expect(groupVersions).toEqual(['core/v1', ...DEFAULT_APIS_GROUP_VERSIONS]);
  });

  it('includes the kinds every controller writes and the create-only reviews', () => {
    const type = typesFor();
    expect(type('', 'replicationcontrollers')).toMatchObject({ kind: 'ReplicationController', shortNames: ['rc'], categories: ['all'], subresources: ['scale', 'status'] });
    expect(type('', 'persistentvolumes')).toMatchObject({ kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'] });
    expect(type('', 'limitranges')).toMatchObject({ shortNames: ['limits'] });
    expect(type('', 'resourcequotas')).toMatchObject({ shortNames: ['quota'], subresources: ['status'] });
    expect(type('', 'componentstatuses')).toMatchObject({ namespaced: false, shortNames: ['cs'], verbs: ['get', 'list'] });
    expect(type('networking.k8s.io', 'ingresses')).toMatchObject({ shortNames: ['ing'], subresources: ['status'] });
    expect(type('networking.k8s.io', 'networkpolicies')).toMatchObject({ shortNames: ['netpol'] });
    expect(type('policy', 'poddisruptionbudgets')).toMatchObject({ shortNames: ['pdb'] });
    expect(type('autoscaling', 'horizontalpodautoscalers')).toMatchObject({ version: 'v2', shortNames: ['hpa'], categories: ['all'] });
    expect(type('storage.k8s.io', 'storageclasses')).toMatchObject({ namespaced: false, shortNames: ['sc'] });
    expect(type('scheduling.k8s.io', 'priorityclasses')).toMatchObject({ shortNames: ['pc'] });
    expect(type('certificates.k8s.io', 'certificatesigningrequests')).toMatchObject({ shortNames: ['csr'] });
    expect(type('admissionregistration.k8s.io', 'validatingwebhookconfigurations')).toMatchObject({ categories: ['api-extensions'], namespaced: false });
    expect(type('apiregistration.k8s.io', 'apiservices')).toMatchObject({ categories: ['api-extensions'], subresources: ['status'] });
    for (const [g, p] of [['authentication.k8s.io', 'tokenreviews'], ['authentication.k8s.io', 'selfsubjectreviews'], ['authorization.k8s.io', 'subjectaccessreviews'], ['authorization.k8s.io', 'selfsubjectaccessreviews'], ['authorization.k8s.io', 'localsubjectaccessreviews'], ['authorization.k8s.io', 'selfsubjectrulesreviews']] as const) {
      expect(type(g, p).verbs, p).toEqual(['create']);
      expect(type(g, p).createOnly, p).toBeTypeOf('function');
    }
    // Known storage version hashes a v1.36 server reports (HPA is stored as autoscaling/v2, events.k8s.io Events as core Events).
    expect(type('', 'pods').storageVersionHash).toBe('xPOwRZ+Yhw8=');
    expect(type('autoscaling', 'horizontalpodautoscalers').storageVersionHash).toBe('qwQve8ut294=');
    expect(type('events.k8s.io', 'events').storageVersionHash).toBe('r2yiGXH7wu8=');
    // MutatingAdmissionPolicy went GA in 1.36 and is still stored at v1beta1 (sha256 of admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicy).
    expect(type('admissionregistration.k8s.io', 'mutatingadmissionpolicies').storageVersionHash).toBe('LYmCf+UMVdg=');
    // Storage-less APIs report none.
    expect(type('authorization.k8s.io', 'subjectaccessreviews').storageVersionHash).toBeUndefined();
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
