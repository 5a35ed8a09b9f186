import { beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../object.ts';
import { create, typesFor, update } from './test-helpers.ts';

const type = typesFor();

describe('rbac.authorization.k8s.io/v1', () => {
  it('defaults roleRef.apiGroup and subject apiGroups', () => {
    const { obj, errors } = create(type('rbac.authorization.k8s.io', 'rolebindings'), {
      metadata: { name: 'rb', namespace: 'default' },
      roleRef: { kind: 'Role', name: 'reader' },
      subjects: [
        { kind: 'ServiceAccount', name: 'sa' },
        { kind: 'User', name: 'jane' },
      ],
    });
    expect(errors).toEqual([]);
    expect(obj.roleRef).toEqual({ kind: 'Role', name: 'reader', apiGroup: 'rbac.authorization.k8s.io' });
    expect(obj.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'sa', apiGroup: '' },
      { kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' },
    ]);
  });

  it('validates rules and refuses roleRef changes', () => {
    expect(create(type('rbac.authorization.k8s.io', 'roles'), { metadata: { name: 'r' }, rules: [{ resources: ['pods'] }] }).errors).toEqual([
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
    ]);
    const crb = type('rbac.authorization.k8s.io', 'clusterrolebindings');
    const old = create(crb, { metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'view' } }).obj;
    expect(update(crb, { ...old, roleRef: { kind: 'ClusterRole', name: 'edit' } }, old).errors).toEqual([
      'roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef',
    ]);
    expect(create(crb, { metadata: { name: 'b' }, roleRef: { kind: 'Role', name: 'x' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] }).errors).toEqual([
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
    ]);
  });
});

describe('events.k8s.io/v1', () => {
  const events = type('events.k8s.io', 'events');

  it('maps the field labels to the core selectable fields', () => {
    // Selectors run on the stored object: the core Event the shared storage holds.
    const served = { apiVersion: 'events.k8s.io/v1', kind: 'Event', regarding: { kind: 'Pod', name: 'p' }, reportingController: 'kubelet', type: 'Normal', reason: 'Pulled' };
    const ev = events.codec!.encode(served, { random: { uid: () => 'u' } as never }) as typeof served;
    expect(ev).toMatchObject({ apiVersion: 'v1', involvedObject: { kind: 'Pod', name: 'p' }, reportingComponent: 'kubelet' });
    expect(events.fieldSelectors!['regarding.kind']!(ev)).toBe('Pod');
    expect(events.fieldSelectors!['reportingController']!(ev)).toBe('kubelet');
    expect(events.fieldSelectors!['source']!(ev)).toBe('kubelet');
    expect(events.fieldSelectors!['involvedObject.kind']).toBeUndefined();
  });

  it('runs the strict create validation with internal field names', () => {
    expect(create(events, { metadata: { name: 'e', namespace: 'default' }, regarding: { namespace: 'default' }, type: 'Bad', deprecatedCount: 2 }).errors).toEqual([
      'eventTime: Required value',
      'type: Invalid value: "": has invalid value: Bad',
      'count: Invalid value: "": needs to be unset',
    ]);
  });

  it('keeps the recorded facts immutable', () => {
    const old = { metadata: { name: 'e', namespace: 'default' }, regarding: { kind: 'Pod', name: 'p' }, reason: 'A', eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'k', reportingInstance: 'i', action: 'x', type: 'Normal' };
    expect(update(events, { ...old, reason: 'B', regarding: { kind: 'Pod', name: 'q' } }, old).errors).toEqual([
      'involvedObject: Invalid value: {"Kind":"Pod","Namespace":"","Name":"q","UID":"","APIVersion":"","ResourceVersion":"","FieldPath":""}: field is immutable',
      'reason: Invalid value: "B": field is immutable',
      'reason: Invalid value: "B": field is immutable',
    ]);
  });
});

describe('coordination.k8s.io/v1', () => {
  it('validates the Lease spec numbers', () => {
    expect(create(type('coordination.k8s.io', 'leases'), { metadata: { name: 'l' }, spec: { leaseDurationSeconds: 0 } }).errors).toEqual([
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    ]);
  });
});

describe('apiextensions.k8s.io/v1', () => {
  const crds = type('apiextensions.k8s.io', 'customresourcedefinitions');
  // The CRD validation loads on first use: the registry awaits it before a write, so do the helpers' callers.
  beforeAll(() => crds.loadValidation?.());
  const crd = () => ({
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', kind: 'CronTab' },
      versions: [{ name: 'v1', served: true, storage: true }],
    },
    status: { conditions: [{ type: 'Established', status: 'True' }] },
  });

  it('defaults names and conversion and starts a fresh status', () => {
    const { obj } = create(crds, crd());
    expect(obj.spec).toMatchObject({ names: { plural: 'crontabs', kind: 'CronTab', singular: 'crontab', listKind: 'CronTabList' }, conversion: { strategy: 'None' } });
    expect(obj.status).toEqual({ conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    expect(obj.metadata?.generation).toBe(1);
  });

  it('keeps status on main-resource updates, appending a new storage version', () => {
    const old: KubeObject = { ...create(crds, crd()).obj, status: { conditions: [{ type: 'Established', status: 'True' }], acceptedNames: { plural: 'crontabs', kind: 'CronTab' }, storedVersions: ['v1'] } };
    const next = structuredClone(old);
    (next.spec as { versions: Record<string, unknown>[] }).versions = [
      { name: 'v1', served: true, storage: false },
      { name: 'v2', served: true, storage: true },
    ];
    next.status = {};
    const { obj } = update(crds, next, old);
    expect(obj.status).toEqual({ ...(old.status as object), storedVersions: ['v1', 'v2'] });
    expect(obj.metadata?.generation).toBe(2);
  });
});
