// Streams a registry watch as the apiserver does: 200, `application/json`, one compact JSON event
// per line. Headers go out at once (msw holds them until the first chunk, so an empty one is sent),
// `timeoutSeconds` ends the stream cleanly, a client that goes away unsubscribes, and the
// cluster's close() ends every open stream.
import type { ResourceType } from '../apis/resource-type.ts';
import { toStatusError, type StatusError } from '../errors/status-error.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import type { WatchHandle, WatchOptions } from '../registry/watch.ts';
import type { ServedWatches } from './served-watches.ts';
import type { ObjectView } from './table/index.ts';
import { watchEncoder } from './watch-encoding.ts';

export interface WatchStreamOptions extends WatchOptions {
  timeoutSeconds?: number;
}

export interface WatchStreamTuning {
  /** How often an idle watch with allowWatchBookmarks gets a BOOKMARK (the apiserver: about a minute). */
  bookmarkIntervalMs: number;
  /** How many unread events a watcher may fall behind before its stream is ended (cleanly, as the watch cache does). */
  maxBacklog: number;
}

export const DEFAULT_WATCH_TUNING: WatchStreamTuning = { bookmarkIntervalMs: 60_000, maxBacklog: 10_000 };

/** What a watch stream needs besides the registry and its options. */
export interface WatchStreamContext {
  tuning?: WatchStreamTuning;
  /** The Table or PartialObjectMetadata view the Accept header asked for. */
  view?: ObjectView;
  /** The request's query (`includeObject` of a Table view). */
  query?: URLSearchParams;
  /** The cluster's open streams, so close() can end them. */
  servedWatches?: ServedWatches;
  /** The clock a Table view's ages are computed against. */
  now?: () => Date;
}

const encoder = new TextEncoder();

export function watchResponse(
  registry: Pick<GenericRegistry, 'watch'> & { readonly type: ResourceType },
  namespace: string | undefined,
  name: string | undefined,
  options: WatchStreamOptions,
  context: WatchStreamContext = {},
): Response {
  const tuning = context.tuning ?? DEFAULT_WATCH_TUNING;
  // Bad transform options are a 400 before the stream starts, as optionsForTransform is.
  const lines = watchEncoder(registry.type, context.view, context.query ?? new URLSearchParams(), context.now);
  let handle: WatchHandle | undefined;
  let startError: StatusError | undefined;
  let timeoutTimer: ReturnType<typeof setTimeout> | undefined;
  let bookmarkTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let forget: () => void = () => undefined;
  const cleanup = () => {
    closed = true;
    forget();
    handle?.stop();
    clearTimeout(timeoutTimer);
    clearTimeout(bookmarkTimer);
  };
  // How many events each enqueued chunk holds: the queue's size, and so the backlog, is in events.
  const eventsIn = new WeakMap<Uint8Array, number>();
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const close = () => {
          if (closed) return;
          flush();
          cleanup();
          controller.close();
        };
        controller.enqueue(new Uint8Array(0));
        // Events emitted in one synchronous run (a write seen by this watcher, the initial state, a
        // history replay) go out as one chunk, as WatchServer flushes when its channel is empty:
        // each chunk costs a trip through the transport. A microtask, not setImmediate, because the
        // in-process transport can keep the event loop in microtasks for long stretches.
        let pending: string[] = [];
        // The backlog counts live events only: the watch cache sends a watch's initial state and
        // history replay itself, before the watcher's bounded buffer comes into play.
        let starting = true;
        let pendingLive = 0;
        const flush = () => {
          if (closed || pending.length === 0) return;
          const chunk = encoder.encode(pending.length === 1 ? pending[0]! : pending.join(''));
          eventsIn.set(chunk, pendingLive);
          pending = [];
          pendingLive = 0;
          controller.enqueue(chunk);
        };
        try {
          handle = registry.watch(namespace, name, options, {
            event(event) {
              if (closed) return;
              const backlog = pendingLive - (controller.desiredSize ?? 0);
              if (!starting && backlog > tuning.maxBacklog) {
                // Too far behind: the watch cache terminates an unresponsive watcher
                // (cacher/cache_watcher.go add(): forget(false) closes its result channel), and
                // the stream just ends after what was already queued, with no ERROR event. The
                // client re-watches from the last resourceVersion it read. The backlog counts
                // only events the client has not read: chunks still in this stream's queue,
                // which a transport pulls from only as fast as its client reads.
                close();
                return;
              }
              let line: string | undefined;
              try {
                line = lines.encode(event);
              } catch {
                // WatchServer ends a stream whose event it cannot encode (it never skips one).
                line = undefined;
              }
              if (line === undefined) {
                close();
                return;
              }
              if (pending.length === 0) queueMicrotask(flush);
              pending.push(line);
              if (!starting) pendingLive++;
            },
            end: close,
          });
        } catch (err) {
          startError = toStatusError(err);
          cleanup();
          return;
        }
        starting = false;
        if (closed) {
          // Ended while starting (410 for a compacted or overflowing start, an unencodable first
          // event): cleanup ran before there was a handle to stop.
          handle.stop();
          return;
        }
        if (context.servedWatches) forget = context.servedWatches.add(close);
        // get.go: timeoutSeconds becomes a timer; a negative one fires at once, ending the watch as
        // it starts. Beyond setTimeout's range (~24.8 days) it never fires in a test's lifetime.
        const timeoutMs = (options.timeoutSeconds ?? 0) * 1000;
        if (timeoutMs !== 0 && timeoutMs <= 0x7fffffff) timeoutTimer = setTimeout(close, Math.max(0, timeoutMs));
        if (options.allowWatchBookmarks) {
          const tick = () => {
            handle?.bookmark();
            if (!closed) bookmarkTimer = setTimeout(tick, tuning.bookmarkIntervalMs);
          };
          bookmarkTimer = setTimeout(tick, tuning.bookmarkIntervalMs);
        }
      },
      cancel() {
        cleanup();
      },
    },
    // Count live events, not chunks or bytes: the backlog limit is in events.
    { highWaterMark: 1, size: (chunk) => eventsIn.get(chunk) ?? 0 },
  );
  if (startError) {
    void stream.cancel().catch(() => undefined);
    throw startError;
  }
  return new Response(stream, { status: 200, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
}
