// WATCH semantics (apiserver storage/cacher and endpoints/handlers/watch.go): where a watch starts,
// which events a selector lets through (judged on the new and the previous object), bookmarks,
// initial events, and 410 Expired for a start point older than the history.
import type { KubeObject, StoredObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { fieldError, type FieldError } from '../errors/field-error.ts';
import { expired, invalidOptions, type Status } from '../errors/status-error.ts';
import { RevisionCompactedError, type StoreEvent, type VersionedStore } from '../storage/versioned-store.ts';
import { compileFieldSelector } from './field-selection.ts';
import { compileLabelSelector } from './list.ts';
import { parseResourceVersion } from './read-revision.ts';
import { presentShared as presentOnce } from './presented-objects.ts';

// Watch events carry the one frozen presented object per stored state (presented-objects.ts).
const presentShared = (target: WatchTarget, obj: StoredObject): KubeObject => presentOnce(target.type, obj, target.present);

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject | Status;
}

export interface WatchOptions {
  resourceVersion?: string;
  resourceVersionMatch?: string;
  sendInitialEvents?: boolean;
  allowWatchBookmarks?: boolean;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface WatchSink {
  /** Receives events in revision order, each exactly once. */
  event(event: WatchEvent): void;
  /** The server ends the watch (after an ERROR event, for instance). */
  end(): void;
}

export interface WatchHandle {
  /** Unsubscribes; safe to call more than once. */
  stop(): void;
  /** Sends a BOOKMARK at the current revision if bookmarks were asked for. */
  bookmark(): void;
}

export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

/** validateWatchOptions of apimachinery/pkg/apis/meta/internalversion/validation. */
export function validateWatchOptions(options: WatchOptions): void {
  const errors: FieldError[] = [];
  const match = options.resourceVersionMatch;
  if (options.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errors.push(fieldError.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
  }
  if (match) {
    if (options.sendInitialEvents === undefined) {
      errors.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    }
    if (match !== 'NotOlderThan') errors.push(fieldError.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
  }
  if (errors.length) throw invalidOptions('ListOptions', errors);
}

export interface WatchTarget {
  store: VersionedStore;
  type: ResourceType;
  bucket: string;
  /** Restricts to one namespace (namespaced resources). */
  namespace: string | undefined;
  present(obj: StoredObject): KubeObject;
}

/**
 * Starts a watch. Replaying history (or the initial state) and subscribing happen in one
 * synchronous step, so no write can fall between them: nothing is missed or delivered twice.
 */
export function startWatch(target: WatchTarget, options: WatchOptions, sink: WatchSink): WatchHandle {
  validateWatchOptions(options);
  const { store, type, bucket, namespace } = target;
  const byLabel = compileLabelSelector(options.labelSelector);
  const byField = compileFieldSelector(type, options.fieldSelector);
  const prefix = type.namespaced && namespace ? `${namespace}/` : '';
  const matches = (obj: KubeObject | undefined) => !!obj && (!byLabel || byLabel(obj)) && (!byField || byField(obj));
  const rv = options.resourceVersion ?? '';
  // RV "" or "0" without sendInitialEvents is served as sendInitialEvents=true (WatchList defaulting).
  const initialEvents = options.sendInitialEvents ?? (rv === '' || rv === '0');
  const explicitInitialEvents = options.sendInitialEvents === true;
  let stopped = false;
  let lastRevision = store.revision;

  const emit = (event: WatchEvent) => {
    if (!stopped) sink.event(event);
  };
  const bookmarkObject = (revision: number, initialEnd: boolean): KubeObject => {
    const metadata: Record<string, unknown> = { resourceVersion: String(revision) };
    if (initialEnd) metadata.annotations = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
    return { kind: type.kind, apiVersion: type.group ? `${type.group}/${type.version}` : type.version, metadata };
  };
  // Runs inside the store's commit: it must not throw. An event this watch cannot present ends
  // the watch (the client re-watches from the last event it got), as WatchServer ends a stream
  // whose event it cannot encode; it is never skipped silently.
  const deliver = (ev: StoreEvent) => {
    try {
      deliverOne(ev);
    } catch {
      if (stopped) return;
      stopped = true;
      unsubscribe();
      sink.end();
    }
  };
  const deliverOne = (ev: StoreEvent) => {
    lastRevision = ev.revision;
    if (ev.bucket !== bucket || !ev.key.startsWith(prefix)) return;
    const now = ev.type === 'DELETED' ? undefined : ev.object;
    const was = ev.previous;
    const inNow = matches(now);
    const inBefore = ev.type !== 'ADDED' && matches(was);
    if (ev.type === 'DELETED') {
      if (inBefore) emit({ type: 'DELETED', object: presentShared(target, ev.object) });
    } else if (inNow && inBefore) {
      emit({ type: 'MODIFIED', object: presentShared(target, ev.object) });
    } else if (inNow) {
      emit({ type: 'ADDED', object: presentShared(target, ev.object) });
    } else if (inBefore) {
      // Left the selector: DELETED with the previous content at the new revision.
      const previous = { ...was!, metadata: { ...was!.metadata, resourceVersion: String(ev.revision) } } as StoredObject;
      emit({ type: 'DELETED', object: target.present(previous) });
    }
  };

  let unsubscribe: () => void = () => undefined;
  try {
    if (initialEvents) {
      for (const { object } of store.list(bucket, prefix)) if (matches(object)) emit({ type: 'ADDED', object: presentShared(target, object) });
      if (explicitInitialEvents && options.allowWatchBookmarks) emit({ type: 'BOOKMARK', object: bookmarkObject(store.revision, true) });
    } else if (rv !== '' && rv !== '0') {
      const from = parseResourceVersion(rv);
      for (const ev of store.eventsSince(from, bucket)) {
        if (stopped) break; // the watch ended itself (an event it could not present): stop replaying
        deliver(ev);
      }
    }
    if (!stopped) unsubscribe = store.subscribe(deliver);
  } catch (err) {
    if (!(err instanceof RevisionCompactedError)) throw err;
    // Too old: an ERROR event on the open stream, then the server closes it.
    sink.event({ type: 'ERROR', object: expired(`too old resource version: ${err.requested} (${err.compacted})`).status });
    stopped = true;
    sink.end();
  }

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      unsubscribe();
    },
    bookmark() {
      if (options.allowWatchBookmarks) emit({ type: 'BOOKMARK', object: bookmarkObject(Math.max(lastRevision, store.revision), false) });
    },
  };
}
