// printEvent (kubernetes pkg/printers/internalversion/printers.go) for core/v1 Events and for
// events.k8s.io/v1 Events, which the apiserver prints as the internal core Event they convert to.
import type { KubeObject } from '../../apis/object.ts';
import type { BuiltinPrinter } from './printer-parts.ts';
import { num, obj, str } from './format.ts';
import { column } from './table-types.ts';
import { NAME, row, since } from './printer-parts.ts';

const EVENT_DOC = {
  lastTimestamp: 'The time at which the most recent occurrence of this event was recorded.',
  type: 'Type of this event (Normal, Warning), new types could be added in the future',
  reason: "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  involvedObject: 'The object that this event is about.',
  fieldPath:
    'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
  source: 'The component reporting this event. Should be a short machine understandable string.',
  message: 'A human-readable description of the status of this operation.',
  firstTimestamp: 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
  count: 'The number of times this event has occurred.',
};

/** The internal core Event fields the printer reads. */
interface EventFields {
  name: string;
  firstTimestamp: unknown;
  lastTimestamp: unknown;
  eventTime: unknown;
  count: number;
  series: Record<string, unknown> | undefined;
  involvedObject: Record<string, unknown>;
  type: string;
  reason: string;
  message: string;
  source: Record<string, unknown>;
  reportingController: string;
  reportingInstance: string;
}

const seriesOf = (v: unknown) => (v && typeof v === 'object' ? obj(v) : undefined);

const coreFields = (o: KubeObject): EventFields => ({
  name: str(o.metadata?.name),
  firstTimestamp: o.firstTimestamp,
  lastTimestamp: o.lastTimestamp,
  eventTime: o.eventTime,
  count: num(o.count),
  series: seriesOf(o.series),
  involvedObject: obj(o.involvedObject),
  type: str(o.type),
  reason: str(o.reason),
  message: str(o.message),
  source: obj(o.source),
  reportingController: str(o.reportingComponent),
  reportingInstance: str(o.reportingInstance),
});

/** Convert_v1_Event_To_core_Event of events.k8s.io. */
const eventsV1Fields = (o: KubeObject): EventFields => ({
  name: str(o.metadata?.name),
  firstTimestamp: o.deprecatedFirstTimestamp,
  lastTimestamp: o.deprecatedLastTimestamp,
  eventTime: o.eventTime,
  count: num(o.deprecatedCount),
  series: seriesOf(o.series),
  involvedObject: obj(o.regarding),
  type: str(o.type),
  reason: str(o.reason),
  message: str(o.note),
  source: obj(o.deprecatedSource),
  reportingController: str(o.reportingController),
  reportingInstance: str(o.reportingInstance),
});

const UNKNOWN = '<unknown>';

/** formatEventSource: component (else reportingController), then `, host` (else instance) when set. */
function eventSource(e: EventFields): string {
  const component = str(e.source.component) || e.reportingController;
  const instance = str(e.source.host) || e.reportingInstance;
  return instance ? `${component}, ${instance}` : component;
}

function printEvent(e: EventFields, now: Date) {
  // A zero first/last timestamp reads `<unknown>`; the printer then falls back to other times.
  let first = since(e.firstTimestamp, now);
  if (first === UNKNOWN) first = since(e.eventTime, now);
  let last = since(e.lastTimestamp, now);
  if (last === UNKNOWN) last = first;
  let count = e.count;
  if (e.series) {
    last = since(e.series.lastObservedTime, now);
    count = num(e.series.count);
  } else if (count === 0) {
    // Singleton events don't have a count set in the new API.
    count = 1;
  }
  const kind = str(e.involvedObject.kind).toLowerCase();
  const name = str(e.involvedObject.name);
  const target = name ? `${kind}/${name}` : kind;
  return row(last, e.type, e.reason, target, str(e.involvedObject.fieldPath), eventSource(e), e.message.trim(), first, count, e.name);
}

const COLUMNS = [
  column('Last Seen', 'string', EVENT_DOC.lastTimestamp),
  column('Type', 'string', EVENT_DOC.type),
  column('Reason', 'string', EVENT_DOC.reason),
  column('Object', 'string', EVENT_DOC.involvedObject),
  column('Subobject', 'string', EVENT_DOC.fieldPath, { priority: 1 }),
  column('Source', 'string', EVENT_DOC.source, { priority: 1 }),
  column('Message', 'string', EVENT_DOC.message),
  column('First Seen', 'string', EVENT_DOC.firstTimestamp, { priority: 1 }),
  column('Count', 'string', EVENT_DOC.count, { priority: 1 }),
  { ...NAME, priority: 1 },
];

export const coreEvents: BuiltinPrinter = { columns: COLUMNS, print: (o, now) => printEvent(coreFields(o), now) };
export const eventsV1Events: BuiltinPrinter = { columns: COLUMNS, print: (o, now) => printEvent(eventsV1Fields(o), now) };
