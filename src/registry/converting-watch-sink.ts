// Watch events of a resource with a storage codec: objects leave storage at the version they were
// stored at and reach the watcher at the version it watches. As the apiserver's watch encoder
// does, each event is converted on its own (one webhook call per event, never a batch), and order
// is kept across asynchronous conversions. A conversion that fails ends the stream without an
// event (endpoints/handlers/watch.go: an encode error is handled and the handler returns), so the
// client sees the watch close and starts again. stop() (the watch handle calls it when the watch
// ends or the client goes away) drops what is queued, so no webhook is called for a dead watch.
import type { KubeObject } from '../apis/object.ts';
import type { WatchEvent, WatchSink } from './watch.ts';

type Queued = WatchEvent | 'end';

const carriesObject = (e: WatchEvent) => e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED';

export interface ConvertingWatchSink extends WatchSink {
  /** Stops converting and delivering: queued events are dropped, later ones ignored. */
  stop(): void;
}

export function convertingWatchSink(sink: WatchSink, convert: (obj: KubeObject) => KubeObject | Promise<KubeObject>): ConvertingWatchSink {
  const queue: Queued[] = [];
  let draining = false;
  let stopped = false;

  const stop = () => {
    stopped = true;
    queue.length = 0;
  };
  /** Ends the stream once; a sink that throws while ending cannot turn into an unhandled rejection. */
  const finish = () => {
    if (stopped) return;
    stop();
    try {
      sink.end();
    } catch {
      // The stream is gone already: nothing is left to tell.
    }
  };
  // draining is cleared in the same turn the loop finds the queue empty, so an event queued
  // right after starts a new drain instead of waiting behind one that has finished.
  const drain = async () => {
    try {
      while (queue.length > 0 && !stopped) {
        const item = queue.shift()!;
        if (item === 'end') {
          finish();
          return;
        }
        if (!carriesObject(item)) {
          sink.event(item);
          continue;
        }
        let converted: KubeObject;
        try {
          const result = convert(item.object as KubeObject);
          converted = result instanceof Promise ? await result : result;
        } catch {
          finish();
          return;
        }
        // Stopped while the webhook was answering: the watcher is gone.
        if (stopped) return;
        sink.event({ type: item.type, object: converted });
      }
    } catch {
      // The sink threw delivering an event: end the stream rather than leave a rejection behind.
      finish();
    } finally {
      draining = false;
    }
  };
  const enqueue = (item: Queued) => {
    if (stopped) return;
    queue.push(item);
    if (draining) return;
    draining = true;
    // A microtask later, so the watch is set up (and its handle returned) before the first delivery.
    queueMicrotask(() => void drain());
  };
  return { event: enqueue, end: () => enqueue('end'), stop };
}
