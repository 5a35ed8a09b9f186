// What client-go's legacy recorder (tools/record/events_cache.go, EventCorrelator) does to an
// event before it is written: similar events (same source, object, type and reason) that vary
// only by message are combined once ten arrive within ten minutes ("(combined from similar
// events): ..."); an event identical to one already written raises that event's count and
// lastTimestamp instead of making a new one; and a token bucket per source and object (25 events,
// then one per 5 minutes) drops the rest. Pure bookkeeping on the instants it is given, so the
// same events at the same cluster-clock times always correlate the same way.

/** An ObjectReference as ref.GetReference makes it, in Go's field order. */
export interface ObjectRef {
  kind: string;
  namespace?: string;
  name: string;
  uid?: string;
  apiVersion: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export interface EventSource {
  component: string;
  host?: string;
}

/** A core v1 Event as the legacy recorder builds it (makeEvent), times in nanoseconds. */
export interface LegacyEvent {
  name: string;
  namespace: string;
  involvedObject: ObjectRef;
  reason: string;
  message: string;
  source: EventSource;
  /** Nanoseconds since the epoch. */
  firstTimestamp: bigint;
  lastTimestamp: bigint;
  count: number;
  type: string;
  /** Empty on a combined event (EventAggregate's copy carries no reporting fields). */
  reportingComponent: string;
  reportingInstance: string;
}

export type Correlation = { skip: true } | { skip: false; event: LegacyEvent; patch: boolean };

const CACHE_ENTRIES = 4096;
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_NS = 600n * 1_000_000_000n;
const SPAM_BURST = 25;
const SPAM_QPS = 1 / 300;

/** An LRU cache of `size` entries (k8s.io/utils/lru): a read makes an entry the most recent. */
class Lru<V> {
  private readonly entries = new Map<string, V>();
  private readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value as string);
  }
}

const refKey = (e: LegacyEvent) => [e.source.component, e.source.host ?? '', e.involvedObject.kind, e.involvedObject.namespace ?? '', e.involvedObject.name];

/** getEventKey: what makes two events the same event. */
function eventKey(e: LegacyEvent): string {
  const o = e.involvedObject;
  return [...refKey(e), o.fieldPath ?? '', o.uid ?? '', o.apiVersion, e.type, e.reason, e.message].join('\0');
}

/** getSpamKey: the source and object a token bucket is kept for. */
function spamKey(e: LegacyEvent): string {
  return [...refKey(e), e.involvedObject.uid ?? '', e.involvedObject.apiVersion, e.type].join('\0');
}

/** EventAggregatorByReasonFunc: the aggregate key and the local key (the message). */
function aggregateKeys(e: LegacyEvent): [string, string] {
  return [[...refKey(e), e.involvedObject.uid ?? '', e.involvedObject.apiVersion, e.type, e.reason, e.reportingComponent, e.reportingInstance].join('\0'), e.message];
}

/** A golang.org/x/time/rate limiter's TryAccept: starts full, refills at `qps`. */
interface Bucket {
  tokens: number;
  at: bigint;
}

export class EventCorrelator {
  private readonly aggregates = new Lru<{ localKeys: Set<string>; last: bigint }>(CACHE_ENTRIES);
  private readonly observed = new Lru<{ count: number; first: bigint; name: string }>(CACHE_ENTRIES);
  private readonly buckets = new Lru<Bucket>(CACHE_ENTRIES);
  /** Names an event by its object and instant (util.GenerateEventName). */
  private readonly nameFor: (refName: string, at: bigint) => string;

  constructor(nameFor: (refName: string, at: bigint) => string) {
    this.nameFor = nameFor;
  }

  /** EventCorrelate at instant `now` (nanoseconds): the event to write, whether it patches an existing one, or skip. */
  correlate(incoming: LegacyEvent, now: bigint): Correlation {
    const [event, key] = this.aggregate(incoming, now);
    const observed = { ...event };
    const last = this.observed.get(key);
    const patch = last !== undefined && last.count > 0;
    if (patch) {
      observed.name = last.name;
      observed.firstTimestamp = last.first;
      observed.count = last.count + 1;
    }
    this.observed.set(key, { count: observed.count, first: observed.firstTimestamp, name: observed.name });
    if (!this.accept(spamKey(observed), now)) return { skip: true };
    return { skip: false, event: observed, patch };
  }

  /** EventAggregate: the event itself (keyed by getEventKey) until ten messages share its reason, then the combined event. */
  private aggregate(event: LegacyEvent, now: bigint): [LegacyEvent, string] {
    const [aggregateKey, localKey] = aggregateKeys(event);
    let record = this.aggregates.get(aggregateKey);
    if (!record || now - record.last > AGGREGATE_INTERVAL_NS) record = { localKeys: new Set(), last: 0n };
    record.localKeys.add(localKey);
    record.last = now;
    this.aggregates.set(aggregateKey, record);
    if (record.localKeys.size < AGGREGATE_MAX_EVENTS) return [event, eventKey(event)];
    // PopAny: Go's set gives any member back; the oldest here, so the choice is repeatable.
    record.localKeys.delete(record.localKeys.values().next().value as string);
    const combined: LegacyEvent = {
      name: this.nameFor(event.involvedObject.name, now),
      namespace: event.namespace,
      involvedObject: event.involvedObject,
      reason: event.reason,
      message: `(combined from similar events): ${event.message}`,
      source: event.source,
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type: event.type,
      reportingComponent: '',
      reportingInstance: '',
    };
    return [combined, aggregateKey];
  }

  /** EventSourceObjectSpamFilter: false when the source has spent its events about the object. */
  private accept(key: string, now: bigint): boolean {
    let bucket = this.buckets.get(key);
    if (!bucket) bucket = { tokens: SPAM_BURST, at: now };
    const elapsedSeconds = Number(now - bucket.at) / 1e9;
    if (elapsedSeconds > 0) bucket.tokens = Math.min(SPAM_BURST, bucket.tokens + elapsedSeconds * SPAM_QPS);
    bucket.at = now > bucket.at ? now : bucket.at;
    const accepted = bucket.tokens >= 1;
    if (accepted) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    return accepted;
  }
}
