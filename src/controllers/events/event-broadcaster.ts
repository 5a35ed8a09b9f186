// Where the simulated control plane's Events go: the recorders the controllers, the scheduler and
// the kubelet stand-in call (client-go's tools/record EventRecorder with its correlator, and the
// tools/events recorder the scheduler uses), and one sink that writes them. Recording never
// touches the caller's own write: it correlates on the cluster clock, queues, and returns; the
// queue writes in recording order afterwards and swallows every failure, as the broadcaster's
// goroutine does (recordToSink logs and drops). The cluster waits for the queue in settle().
import type { KubeObject } from '../../apis/object.ts';
import type { ResourceType } from '../../apis/resource-type.ts';
import { StatusError } from '../../errors/status-error.ts';
import { goFormatTimeUtc } from '../../go/time-parse.ts';
import { formatTimestamp } from '../../go/time.ts';
import type { Clock, RandomSource } from '../../util/clock-and-random.ts';
import { isDNS1123Subdomain } from '../../validation/names.ts';
import type { Controller, ControllerContext } from '../context.ts';
import { WorkQueue } from '../work-queue.ts';
import { EventCorrelator, type EventSource, type LegacyEvent, type ObjectRef } from './event-correlator.ts';
import type { EventRecorder, EventRecorders, EventType, SeriesRecorder } from './recorders.ts';

export type { EventRecorder, EventType, ObjectRef, SeriesRecorder } from './recorders.ts';

/** How long a series of the events.k8s.io recorder stays open after its last occurrence (finishTime). */
const SERIES_FINISH_MS = 6 * 60_000;
/** How many cached events.k8s.io events make recording sweep out the finished ones. */
const SERIES_CACHE_SWEEP = 1024;

/** ref.GetReference for a stored object: its kind and apiVersion, identity and resourceVersion. */
export function referenceTo(obj: KubeObject, fieldPath?: string): ObjectRef {
  const meta = obj.metadata ?? {};
  return {
    kind: obj.kind ?? '',
    ...(meta.namespace ? { namespace: meta.namespace } : {}),
    name: meta.name ?? '',
    ...(meta.uid ? { uid: meta.uid } : {}),
    apiVersion: obj.apiVersion ?? '',
    ...(meta.resourceVersion ? { resourceVersion: meta.resourceVersion } : {}),
    ...(fieldPath ? { fieldPath } : {}),
  };
}

const isReference = (obj: KubeObject | ObjectRef): obj is ObjectRef => !('metadata' in obj) && typeof (obj as ObjectRef).name === 'string';

type Write =
  | { api: 'core'; event: LegacyEvent; patch: boolean; fieldManager: string }
  | { api: 'events'; body: KubeObject; series?: { count: number; lastObservedTime: string }; fieldManager: string };

interface SeriesEntry {
  body: KubeObject;
  fieldManager: string;
  eventTimeMs: number;
  series?: { count: number; lastObservedMs: number; lastObservedTime: string };
  flushAt?: number;
}

export interface EventBroadcasterOptions {
  /** Runs a callback at a cluster-clock instant (the series' finish). */
  at(when: number, fire: () => void): void;
}

export class EventBroadcaster implements Controller, EventRecorders {
  readonly name = 'event-broadcaster';
  private readonly ctx: ControllerContext;
  private readonly clock: Clock;
  private readonly random: RandomSource;
  private readonly schedule: (when: number, fire: () => void) => void;
  private readonly queue: WorkQueue;
  private readonly writes = new Map<string, Write>();
  private seq = 0;
  private lastMs = -1n;
  private lastNanos = 0n;
  private readonly correlators = new Map<string, EventCorrelator>();
  private readonly seriesCache = new Map<string, SeriesEntry>();
  private sweepAt = SERIES_CACHE_SWEEP;

  constructor(ctx: ControllerContext, options: EventBroadcasterOptions) {
    this.ctx = ctx;
    this.clock = ctx.clock;
    this.random = ctx.random;
    this.schedule = options.at;
    this.queue = new WorkQueue((id) => this.write(id), { onError: () => undefined });
  }

  start(): void {}

  stop(): void {
    this.queue.stop();
  }

  get idle(): boolean {
    return this.queue.idle;
  }

  whenIdle(): Promise<void> {
    return this.queue.whenIdle();
  }

  /** A legacy recorder for `source` (`{ component: 'replicaset-controller' }`, `{ component: 'kubelet', host: node }`). */
  recorder(source: EventSource, fieldManager: string): EventRecorder {
    // Each component runs its own broadcaster, so each has its own correlator.
    const correlatorKey = `${source.component}\0${source.host ?? ''}`;
    let correlator = this.correlators.get(correlatorKey);
    if (!correlator) this.correlators.set(correlatorKey, (correlator = new EventCorrelator((name, at) => this.eventName(name, at))));
    const c = correlator;
    return {
      event: (obj, type, reason, message, options = {}) => {
        try {
          this.recordLegacy(c, source, fieldManager, obj, type, reason, message, options);
        } catch {
          // generateEvent: an event that cannot be made is logged and dropped, never the caller's failure.
        }
      },
    };
  }

  /** generateEvent and the correlator: an event about `obj`, queued unless the correlator drops it. */
  private recordLegacy(
    c: EventCorrelator,
    source: EventSource,
    fieldManager: string,
    obj: KubeObject | ObjectRef,
    type: EventType,
    reason: string,
    message: string,
    options: { fieldPath?: string; at?: number },
  ): void {
    const ref: ObjectRef = isReference(obj) ? { ...obj, ...(options.fieldPath ? { fieldPath: options.fieldPath } : {}) } : referenceTo(obj, options.fieldPath);
    const at = this.instant(options.at);
    const event: LegacyEvent = {
      name: this.eventName(ref.name, at),
      namespace: ref.namespace || 'default',
      involvedObject: ref,
      reason,
      message,
      source,
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
      type,
      reportingComponent: source.component,
      reportingInstance: source.host ?? '',
    };
    const result = c.correlate(event, at);
    if (result.skip) return;
    this.enqueue({ api: 'core', event: result.event, patch: result.patch, fieldManager });
  }

  /** The events.k8s.io recorder (NewRecorder): reportingInstance is `<controller>-<host>`. */
  seriesRecorder(reportingController: string, host: string, fieldManager: string): SeriesRecorder {
    const reportingInstance = `${reportingController}-${host}`;
    return {
      event: (regardingObj, type, reason, action, note) => {
        try {
          this.recordSeries(reportingController, reportingInstance, fieldManager, regardingObj, type, reason, action, note);
        } catch {
          // eventf: an event that cannot be made is logged and dropped.
        }
      },
    };
  }

  /** eventf and recordToSink: a new event, or the next occurrence of its series. */
  private recordSeries(reportingController: string, reportingInstance: string, fieldManager: string, regardingObj: KubeObject, type: EventType, reason: string, action: string, note: string): void {
    const regarding = referenceTo(regardingObj);
    const at = this.instant();
    const atMs = Number(at / 1_000_000n);
    const eventTime = goFormatTimeUtc(atMs, Number(at % 1_000_000n), true);
    // getKey: type, action, reason, the reporter and the regarding reference (the note is not in it).
    const key = JSON.stringify([type, action, reason, reportingController, reportingInstance, regarding]);
    const cached = this.seriesCache.get(key);
    // finishSeries forgets an event (writing its series) once it has been quiet for finishTime.
    const quietSince = cached ? (cached.series?.lastObservedMs ?? cached.eventTimeMs) : 0;
    if (cached && atMs - quietSince <= SERIES_FINISH_MS) {
      if (cached.series) {
        cached.series = { count: cached.series.count + 1, lastObservedMs: atMs, lastObservedTime: eventTime };
        this.finishLater(key, cached);
        return;
      }
      cached.series = { count: 2, lastObservedMs: atMs, lastObservedTime: eventTime };
      this.enqueue({ api: 'events', body: cached.body, series: { count: 2, lastObservedTime: eventTime }, fieldManager });
      return;
    }
    if (cached?.series && cached.flushAt !== undefined) this.flushSeries(key, cached);
    const body: KubeObject = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: this.eventName(regarding.name, at), namespace: regarding.namespace || 'default' },
      eventTime,
      reportingController,
      reportingInstance,
      action,
      reason,
      regarding,
      note,
      type,
    } as KubeObject;
    const entry: SeriesEntry = { body, fieldManager, eventTimeMs: atMs };
    this.seriesCache.set(key, entry);
    if (this.seriesCache.size > this.sweepAt) this.forgetFinished(atMs);
    this.enqueue({ api: 'events', body, fieldManager });
  }

  /** finishSeries' sweep: events quiet for finishTime leave the cache (a pending series count is written first). */
  private forgetFinished(nowMs: number): void {
    for (const [key, entry] of this.seriesCache) {
      if (nowMs - (entry.series?.lastObservedMs ?? entry.eventTimeMs) <= SERIES_FINISH_MS) continue;
      if (entry.flushAt !== undefined) this.flushSeries(key, entry);
      else this.seriesCache.delete(key);
    }
    // The next sweep once the cache has doubled, so recording stays linear while everything is fresh.
    this.sweepAt = Math.max(SERIES_CACHE_SWEEP, 2 * this.seriesCache.size);
  }

  /** Writes a series' latest count once it has been quiet for finishTime, as finishSeries does. */
  private finishLater(key: string, entry: SeriesEntry): void {
    const due = entry.series!.lastObservedMs + SERIES_FINISH_MS;
    if (entry.flushAt !== undefined && entry.flushAt >= due) return;
    entry.flushAt = due;
    this.schedule(due, () => {
      if (this.seriesCache.get(key) !== entry || entry.flushAt !== due) return;
      const stillDue = entry.series!.lastObservedMs + SERIES_FINISH_MS;
      if (stillDue > due) {
        entry.flushAt = undefined;
        this.finishLater(key, entry);
        return;
      }
      this.flushSeries(key, entry);
    });
  }

  private flushSeries(key: string, entry: SeriesEntry): void {
    entry.flushAt = undefined;
    if (this.seriesCache.get(key) === entry) this.seriesCache.delete(key);
    this.enqueue({ api: 'events', body: entry.body, series: { count: entry.series!.count, lastObservedTime: entry.series!.lastObservedTime }, fieldManager: entry.fieldManager });
  }

  /**
   * The instant an event is stamped with, in nanoseconds: the cluster clock's millisecond and a
   * sub-millisecond part from the seeded randomness (the clock has no finer grain), each
   * apart from the last one so no two events share a name.
   */
  private instant(atMs?: number): bigint {
    const ms = BigInt(Math.floor(atMs ?? this.clock.now().getTime()));
    let sub = 0n;
    for (let i = 0; i < 6; i++) sub = sub * 10n + BigInt(this.random.pick('0123456789'));
    // Events of one clock millisecond follow each other, as on a real clock (they may run past it).
    const nanos = ms === this.lastMs ? this.lastNanos + 1n + (sub % 256n) : ms * 1_000_000n + sub;
    this.lastMs = ms;
    this.lastNanos = nanos;
    return nanos;
  }

  /** util.GenerateEventName: `<object>.<nanoseconds in hex>`, a uuid when that is no valid name. */
  private eventName(refName: string, at: bigint): string {
    const name = `${refName}.${at.toString(16)}`;
    return isDNS1123Subdomain(name).length === 0 ? name : this.random.uid();
  }

  private enqueue(write: Write): void {
    const id = String(this.seq++);
    this.writes.set(id, write);
    this.queue.add(id);
  }

  private async write(id: string): Promise<void> {
    const write = this.writes.get(id);
    this.writes.delete(id);
    if (!write) return;
    try {
      if (write.api === 'core') await this.writeLegacy(write.event, write.patch, write.fieldManager);
      else await this.writeSeries(write.body, write.series, write.fieldManager);
    } catch {
      // recordEvent: the server rejected it (namespace terminating, invalid, ...): dropped.
    }
  }

  private type(api: 'core' | 'events'): ResourceType {
    return api === 'core' ? this.ctx.catalog.find('', 'v1', 'events')! : this.ctx.catalog.find('events.k8s.io', 'v1', 'events')!;
  }

  /** recordEvent of tools/record: a repeat patches count, lastTimestamp and message; a vanished one is created again. */
  private async writeLegacy(event: LegacyEvent, patch: boolean, fieldManager: string): Promise<void> {
    const type = this.type('core');
    const registry = this.ctx.registryFor(type);
    const lastTimestamp = formatTimestamp(new Date(Number(event.lastTimestamp / 1_000_000n)));
    if (patch) {
      try {
        const result = await registry.patch(event.namespace, event.name, (current) => ({ ...current, count: event.count, lastTimestamp, message: event.message }), { fieldManager });
        this.ctx.recordClusterWrite?.(type, result.object);
        return;
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: event.name, namespace: event.namespace },
      involvedObject: event.involvedObject,
      reason: event.reason,
      message: event.message,
      source: event.source.host ? { component: event.source.component, host: event.source.host } : { component: event.source.component },
      firstTimestamp: formatTimestamp(new Date(Number(event.firstTimestamp / 1_000_000n))),
      lastTimestamp,
      count: event.count,
      type: event.type,
      eventTime: null,
      reportingComponent: event.reportingComponent,
      reportingInstance: event.reportingInstance,
    } as unknown as KubeObject;
    // The document client-go sends: decoding the request reads it as sent, not re-marshalled.
    const result = await registry.create(event.namespace, body, { fieldManager, bodyJson: JSON.stringify(body) });
    this.ctx.recordClusterWrite?.(type, result.object);
  }

  /** recordEvent of tools/events: a series patches the event's series, a vanished one is created again. */
  private async writeSeries(body: KubeObject, series: { count: number; lastObservedTime: string } | undefined, fieldManager: string): Promise<void> {
    const type = this.type('events');
    const registry = this.ctx.registryFor(type);
    const namespace = body.metadata!.namespace!;
    const name = body.metadata!.name!;
    if (series) {
      try {
        const result = await registry.patch(namespace, name, (current) => ({ ...current, series }), { fieldManager });
        this.ctx.recordClusterWrite?.(type, result.object);
        return;
      } catch (err) {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }
    const created = series ? { ...body, series } : body;
    const result = await registry.create(namespace, created, { fieldManager, bodyJson: JSON.stringify(created) });
    this.ctx.recordClusterWrite?.(type, result.object);
  }
}

const NO_EVENTS: EventRecorder = { event: () => undefined };
const NO_SERIES: SeriesRecorder = { event: () => undefined };

/** The host name the control plane's components report (the scheduler's reportingInstance is `default-scheduler-<host>`). */
export const CONTROL_PLANE_HOST = 'kubefake-control-plane';

/** The scheduler's events.k8s.io recorder (reportingController is the profile's schedulerName). */
export function schedulerRecorder(ctx: ControllerContext, schedulerName: string): SeriesRecorder {
  return ctx.events?.seriesRecorder(schedulerName, CONTROL_PLANE_HOST, 'kube-scheduler') ?? NO_SERIES;
}

/** The kubelet of a node: `Source{Component: kubelet, Host: node}`. */
export function kubeletRecorder(ctx: ControllerContext, node: string): EventRecorder {
  return ctx.events?.recorder({ component: 'kubelet', host: node }, 'kubelet') ?? NO_EVENTS;
}

/**
 * The legacy recorder a kube-controller-manager controller records with (`Source.Component` is
 * the controller's name: `replicaset-controller`, `deployment-controller`, ...); one that records
 * nothing when the cluster simulates no control plane.
 */
export function controllerRecorder(ctx: ControllerContext, component: string): EventRecorder {
  return ctx.events?.recorder({ component }, 'kube-controller-manager') ?? NO_EVENTS;
}
