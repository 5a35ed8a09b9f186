// managedFields written back after a write: an entry whose set the write left alone is encoded as
// it came (the same FieldsV1), one whose set changed is encoded anew.
import { describe, expect, it } from 'vitest';
import { FieldSet } from './fieldpath.ts';
import { decodeManagedFields, encodeManagedFields, managerIdentifier } from './managed-fields.ts';
import { deepFreeze } from '../util/deep-freeze.ts';

const entry = (manager: string, subresource?: string) => managerIdentifier({ manager, operation: 'Update', apiVersion: 'v1', subresource });

describe('encodeManagedFields after decodeManagedFields', () => {
  it('gives back an unchanged entry as it was encoded, and a changed one as its new set', () => {
    const controller = entry('kube-controller-manager');
    const kubelet = entry('kubelet', 'status');
    const first = encodeManagedFields({
      fields: new Map([
        [controller, { set: FieldSet.of([{ field: 'spec' }, { field: 'replicas' }]), apiVersion: 'v1', applied: false }],
        [kubelet, { set: FieldSet.of([{ field: 'status' }, { field: 'phase' }]), apiVersion: 'v1', applied: false }],
      ]),
      times: new Map([[controller, '2025-01-01T00:00:00Z'], [kubelet, '2025-01-01T00:00:00Z']]),
    })!;
    const decoded = decodeManagedFields(first);
    const vs = decoded.fields.get(kubelet)!;
    decoded.fields.set(kubelet, { ...vs, set: vs.set.union(FieldSet.of([{ field: 'status' }, { field: 'podIP' }])) });
    const second = encodeManagedFields(decoded)!;
    expect(second[0]!.fieldsV1).toBe(first[0]!.fieldsV1);
    expect(second[1]!.fieldsV1).toEqual({ 'f:status': { 'f:phase': {}, 'f:podIP': {} } });
    // A FieldsV1 that did not come from here (a client's, in its own key order) is encoded anew.
    const sent = decodeManagedFields([{ ...first[0], fieldsV1: { 'f:spec': { 'f:replicas': {} }, 'f:metadata': { 'f:labels': {} } } }]);
    expect(Object.keys(encodeManagedFields(sent)![0]!.fieldsV1!)).toEqual(['f:metadata', 'f:spec']);
  });
});

describe('decodeManagedFields of a stored list', () => {
  it('shares one set per stored FieldsV1, which what the field manager does with it leaves as it was', () => {
    const id = entry('kube-controller-manager');
    const stored = deepFreeze(
      encodeManagedFields({
        fields: new Map([[id, { set: FieldSet.of([{ field: 'spec' }, { field: 'replicas' }], [{ field: 'metadata' }, { field: 'labels' }, { field: 'app' }]), apiVersion: 'v1', applied: false }]]),
        times: new Map([[id, '2025-01-01T00:00:00Z']]),
      })!,
    );
    const before = structuredClone(stored[0]!.fieldsV1);
    const set = decodeManagedFields(stored).fields.get(id)!.set;
    expect(decodeManagedFields(stored).fields.get(id)!.set).toBe(set);
    const other = FieldSet.of([{ field: 'spec' }, { field: 'paused' }], [{ field: 'metadata' }, { field: 'labels' }, { field: 'tier' }]);
    set.union(other);
    set.difference(other);
    set.recursiveDifference(FieldSet.of([{ field: 'metadata' }]));
    set.intersection(other);
    set.ensureNamedFieldsAreMembers(undefined);
    expect(decodeManagedFields(stored).fields.get(id)!.set.toFieldsV1()).toEqual(before);
    expect(encodeManagedFields(decodeManagedFields(stored))![0]!.fieldsV1).toBe(stored[0]!.fieldsV1);
  });
});
