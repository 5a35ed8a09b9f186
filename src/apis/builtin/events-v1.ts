// events.k8s.io/v1: discovery data from the generated catalogue (src/generated). The real server
// serves it from the core Event storage (pkg/registry/core/event), converting field names (so does
// kubefake: one bucket, core objects, eventsCodec); the
// field-label mapping is pkg/apis/events/v1/conversion.go and the stricter checks for this API are
// ValidateEventCreate/Update in pkg/apis/core/validation/events.go. Validation messages use the
// internal (core) field names, whichever API the Event came through.
import { deepCopyJson } from '../../schema/json-value.ts';
import type { ResourceType } from '../resource-type.ts';
import type { StorageCodec } from '../storage-codec.ts';
import { type FieldError, fieldError } from '../../errors/field-error.ts';
import { invalidWithJson } from '../../validation/meta-fields.ts';
import { goJson } from '../../errors/go-format.ts';
import type { KubeObject } from '../object.ts';
import { isPlainObject } from '../object.ts';
import { type EventView, legacyValidateEvent } from './core-v1.ts';
import { builtin, getIn, goString, metadataName, metadataNamespace, objAt, semanticEqual, unset } from './shared.ts';

export function eventsV1ResourceTypes(): ResourceType[] {
  const events = builtin('events.k8s.io', 'v1', {
      kind: 'Event',
      plural: 'events',
      namespaced: true,
      fieldSelectors: eventsFieldSelectors,
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: true,
      returnDeletedObject: false,
      strategy: { validate: validateEventCreate, validateUpdate: validateEventUpdate },
  });
  // The storage factory cohabits events.k8s.io events with core events
  // (pkg/kubeapiserver/default_storage_factory_builder.go): one store, core v1 objects in it.
  events.storageResource = { group: '', plural: 'events' };
  events.codec = eventsCodec;
  return [events];
}

/**
 * events.k8s.io/v1 <-> core v1 Event (pkg/apis/events/v1/conversion.go): regarding is
 * involvedObject, note is message, reportingController is reportingComponent, and the
 * deprecated* fields are the legacy source, firstTimestamp, lastTimestamp and count.
 */
const RENAMES: readonly (readonly [events: string, core: string])[] = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['reportingController', 'reportingComponent'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

function renamed(obj: KubeObject, apiVersion: string, pairs: readonly (readonly [from: string, to: string])[]): KubeObject {
  const out: KubeObject = { ...deepCopyJson(obj), apiVersion };
  const record = out as Record<string, unknown>;
  for (const [from, to] of pairs) {
    if (!(from in record)) continue;
    record[to] = record[from];
    delete record[from];
  }
  return out;
}

const eventsCodec: StorageCodec = {
  encode: (obj) => renamed(obj, 'v1', RENAMES),
  decode: (objs) => objs.map((o) => (o.apiVersion === 'events.k8s.io/v1' ? o : renamed(o, 'events.k8s.io/v1', RENAMES.map(([e, c]) => [c, e] as const)))),
};

function view(obj: KubeObject): EventView {
  return {
    namespace: goString(obj.metadata?.namespace),
    involvedObjectNamespace: goString(getIn(obj, ['regarding', 'namespace'])),
    eventTimeSet: !unset(obj.eventTime),
    reportingController: goString(obj.reportingController),
    reportingInstance: goString(obj.reportingInstance),
    action: goString(obj.action),
    reason: goString(obj.reason),
    message: goString(obj.note),
  };
}

/** Strict validation for events.k8s.io (the name rule itself is the registry's, DNS subdomain). */
function validateEventCreate(obj: KubeObject): FieldError[] {
  const errs = [...legacyValidateEvent(view(obj)), ...validateSeries(obj)];
  if (unset(obj.eventTime)) errs.push(fieldError.required('eventTime'));
  if (obj.type !== 'Normal' && obj.type !== 'Warning') errs.push(fieldError.invalid('type', '', `has invalid value: ${goString(obj.type)}`));
  if (!unset(obj.deprecatedFirstTimestamp)) errs.push(fieldError.invalid('firstTimestamp', '', 'needs to be unset'));
  if (!unset(obj.deprecatedLastTimestamp)) errs.push(fieldError.invalid('lastTimestamp', '', 'needs to be unset'));
  if (typeof obj.deprecatedCount === 'number' && obj.deprecatedCount !== 0) errs.push(fieldError.invalid('count', '', 'needs to be unset'));
  const source = objAt(obj, 'deprecatedSource');
  if (goString(source?.component) !== '' || goString(source?.host) !== '') errs.push(fieldError.invalid('source', '', 'needs to be unset'));
  return errs;
}

function validateSeries(obj: KubeObject): FieldError[] {
  const series = objAt(obj, 'series');
  if (!series) return [];
  const errs: FieldError[] = [];
  if (typeof series.count !== 'number' || series.count < 2) errs.push(fieldError.invalid('series.count', '', 'should be at least 2'));
  if (unset(series.lastObservedTime)) errs.push(fieldError.required('series.lastObservedTime'));
  return errs;
}

/** An internal ObjectReference as Go's json.Marshal prints it: field names, declaration order. */
function objectReferenceJson(ref: unknown): string {
  if (ref === undefined || ref === null) return 'null';
  const r = isPlainObject(ref) ? ref : {};
  const f = (k: string) => goJson(goString(r[k]));
  return `{"Kind":${f('kind')},"Namespace":${f('namespace')},"Name":${f('name')},"UID":${f('uid')},"APIVersion":${f('apiVersion')},"ResourceVersion":${f('resourceVersion')},"FieldPath":${f('fieldPath')}}`;
}

function immutable(path: string, value: unknown, old: unknown, json?: string): FieldError[] {
  if (semanticEqual(value ?? null, old ?? null)) return [];
  if (json === undefined) return [fieldError.invalid(path, value ?? null, 'field is immutable')];
  // A struct value: Go prints its field names in declaration order, not goJson's sorted keys.
  return [invalidWithJson(path, value, json, 'field is immutable')];
}

function validateEventUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = [...legacyValidateEvent(view(obj))];
  if (!semanticEqual(obj.series, old.series)) errs.push(...validateSeries(obj));
  const source = (o: KubeObject) => {
    const s = objAt(o, 'deprecatedSource');
    return `{"Component":${goJson(goString(s?.component))},"Host":${goJson(goString(s?.host))}}`;
  };
  errs.push(
    ...immutable('involvedObject', obj.regarding, old.regarding, objectReferenceJson(obj.regarding)),
    ...immutable('reason', obj.reason, old.reason),
    ...immutable('message', obj.note, old.note),
    ...(source(obj) === source(old) ? [] : [invalidWithJson('source', null, source(obj), 'field is immutable')]),
    ...immutable('firstTimestamp', obj.deprecatedFirstTimestamp, old.deprecatedFirstTimestamp),
    ...immutable('lastTimestamp', obj.deprecatedLastTimestamp, old.deprecatedLastTimestamp),
    ...immutable('count', obj.deprecatedCount ?? 0, old.deprecatedCount ?? 0),
    // The Go code checks reason twice.
    ...immutable('reason', obj.reason, old.reason),
    ...immutable('type', obj.type, old.type),
    ...immutable('eventTime', obj.eventTime, old.eventTime),
    ...immutable('action', obj.action, old.action),
    ...immutable('related', obj.related, old.related, obj.related ? objectReferenceJson(obj.related) : undefined),
    ...immutable('reportingController', obj.reportingController, old.reportingController),
    ...immutable('reportingInstance', obj.reportingInstance, old.reportingInstance),
  );
  return errs;
}

/**
 * The field labels events.k8s.io accepts (pkg/apis/events/v1/conversion.go), converted to the core
 * labels and read from the stored core Event, as the shared storage does.
 */
const eventsFieldSelectors: Record<string, (obj: KubeObject) => string> = {
  'metadata.name': metadataName,
  'metadata.namespace': metadataNamespace,
  ...Object.fromEntries(
    ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((f) => [
      `regarding.${f}`,
      (obj: KubeObject) => goString(getIn(obj, ['involvedObject', f])),
    ]),
  ),
  reason: (obj) => goString(obj.reason),
  reportingController: (obj) => goString(obj.reportingComponent),
  // `source` maps to the same selectable field as core/v1: the legacy component, else the controller.
  source: (obj) => goString(getIn(obj, ['source', 'component'])) || goString(obj.reportingComponent),
  type: (obj) => goString(obj.type),
};
