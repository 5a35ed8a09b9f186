// Streams a registry watch as the apiserver does: 200, `application/json`, one compact JSON event
// per line. Headers go out at once (msw holds them until the first chunk, so an empty one is sent),
// `timeoutSeconds` ends the stream cleanly, and a client that goes away unsubscribes.
import { expired, toStatusError, type StatusError } from '../errors/status-error.ts';
import type { GenericRegistry } from '../registry/generic-registry.ts';
import type { WatchHandle, WatchOptions } from '../registry/watch.ts';

export interface WatchStreamOptions extends WatchOptions {
  timeoutSeconds?: number;
}

export interface WatchStreamTuning {
  /** How often an idle watch with allowWatchBookmarks gets a BOOKMARK (the apiserver: about a minute). */
  bookmarkIntervalMs: number;
  /** How many unread events a watcher may fall behind before it is ended with 410. */
  maxBacklog: number;
}

export const DEFAULT_WATCH_TUNING: WatchStreamTuning = { bookmarkIntervalMs: 60_000, maxBacklog: 10_000 };

const encoder = new TextEncoder();

function countLines(chunk: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x0a) n++;
  return n;
}

export function watchResponse(
  registry: GenericRegistry,
  namespace: string | undefined,
  name: string | undefined,
  options: WatchStreamOptions,
  tuning: WatchStreamTuning = DEFAULT_WATCH_TUNING,
): Response {
  let handle: WatchHandle | undefined;
  let startError: StatusError | undefined;
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  let closed = false;
  const cleanup = () => {
    closed = true;
    handle?.stop();
    timers.forEach((t) => clearTimeout(t));
  };
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
        let lastResourceVersion = '';
        // Events emitted in one synchronous run (initial state, history replay) go out as one chunk:
        // each chunk costs a trip through the transport. A microtask, not setImmediate, because the
        // in-process transport can keep the event loop in microtasks for long stretches.
        let pending: string[] = [];
        const flush = () => {
          if (closed || pending.length === 0) return;
          const text = pending.join('');
          pending = [];
          controller.enqueue(encoder.encode(text));
        };
        try {
          handle = registry.watch(namespace, name, options, {
            event(event) {
              if (closed) return;
              const rv = (event.object as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion;
              const backlog = pending.length - (controller.desiredSize ?? 0);
              if (backlog > tuning.maxBacklog) {
                // Too far behind, as the watch cache judges it: end with 410 so the client relists.
                pending.push(JSON.stringify({ type: 'ERROR', object: expired(`too old resource version: ${lastResourceVersion} (${rv ?? ''})`).status }) + '\n');
                close();
                return;
              }
              if (rv) lastResourceVersion = rv;
              if (pending.length === 0) queueMicrotask(flush);
              pending.push(JSON.stringify(event) + '\n');
            },
            end: close,
          });
        } catch (err) {
          startError = toStatusError(err);
          cleanup();
          return;
        }
        if (options.timeoutSeconds !== undefined && options.timeoutSeconds > 0) timers.push(setTimeout(close, options.timeoutSeconds * 1000));
        if (options.allowWatchBookmarks) {
          const tick = () => {
            handle?.bookmark();
            if (!closed) timers.push(setTimeout(tick, tuning.bookmarkIntervalMs));
          };
          timers.push(setTimeout(tick, tuning.bookmarkIntervalMs));
        }
      },
      cancel() {
        cleanup();
      },
    },
    // Count events (lines), not chunks or bytes: the backlog limit is in events.
    { highWaterMark: 1, size: countLines },
  );
  if (startError) {
    void stream.cancel().catch(() => undefined);
    throw startError;
  }
  return new Response(stream, { status: 200, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
}
