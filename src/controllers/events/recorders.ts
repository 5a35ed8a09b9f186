// What a component records Events through (client-go's EventRecorder interfaces), apart from the
// broadcaster that writes them, so the controller context can carry one without importing it.
import type { KubeObject } from '../../apis/object.ts';
import type { EventSource, ObjectRef } from './event-correlator.ts';

export type { EventSource, ObjectRef } from './event-correlator.ts';
export type EventType = 'Normal' | 'Warning';

/** The legacy EventRecorder of one source (a controller, or a node's kubelet). */
export interface EventRecorder {
  /**
   * Records an event about `obj` (or a prepared reference). `at` (epoch ms, default now) is the
   * instant it happened, for what the kubelet stand-in reconstructs after the clock jumped.
   */
  event(obj: KubeObject | ObjectRef, type: EventType, reason: string, message: string, options?: { fieldPath?: string; at?: number }): void;
}

/** The events.k8s.io recorder (tools/events) of one reporting controller and instance. */
export interface SeriesRecorder {
  event(regarding: KubeObject, type: EventType, reason: string, action: string, note: string): void;
}

/** Hands out the recorders (an EventBroadcaster). */
export interface EventRecorders {
  /** A legacy recorder for `source`, writing as `fieldManager`. */
  recorder(source: EventSource, fieldManager: string): EventRecorder;
  /** The events.k8s.io recorder (NewRecorder): reportingInstance is `<controller>-<host>`. */
  seriesRecorder(reportingController: string, host: string, fieldManager: string): SeriesRecorder;
}
