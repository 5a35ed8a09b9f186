// Watch events of a resource with a storage codec: objects leave storage at the version they were
// stored at and reach the watcher at the version it watches. Events emitted together (the initial
// state, a history replay) are converted together, in one webhook call; order is kept across
// asynchronous conversions. A conversion that fails ends the watch with an ERROR event carrying
// the failure (500) so the client relists, rather than skipping an event silently.
import type { KubeObject } from '../apis/object.ts';
import { toStatusError } from '../errors/status-error.ts';
import type { WatchEvent, WatchSink } from './watch.ts';

type Queued = WatchEvent | 'end';

const carriesObject = (e: WatchEvent) => e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED';

export function convertingWatchSink(sink: WatchSink, convert: (objs: KubeObject[]) => KubeObject[] | Promise<KubeObject[]>): WatchSink {
  const queue: Queued[] = [];
  let scheduled = false;
  let failed = false;

  const deliver = (batch: Queued[], converted: KubeObject[]) => {
    let next = 0;
    for (const e of batch) {
      if (e === 'end') sink.end();
      else sink.event(carriesObject(e) ? { type: e.type, object: converted[next++]! } : e);
    }
  };
  const fail = (err: unknown) => {
    failed = true;
    queue.length = 0;
    sink.event({ type: 'ERROR', object: toStatusError(err).status });
    sink.end();
  };
  const drain = async () => {
    while (queue.length > 0 && !failed) {
      const batch = queue.splice(0);
      const objects = batch.filter((e): e is WatchEvent => e !== 'end' && carriesObject(e)).map((e) => e.object as KubeObject);
      try {
        const result = objects.length ? convert(objects) : [];
        deliver(batch, result instanceof Promise ? await result : result);
      } catch (err) {
        fail(err);
      }
    }
    scheduled = false;
  };
  const enqueue = (item: Queued) => {
    if (failed) return;
    queue.push(item);
    if (scheduled) return;
    scheduled = true;
    // A microtask later, so a synchronous burst of events is one batch.
    queueMicrotask(() => void drain());
  };
  return { event: enqueue, end: () => enqueue('end') };
}
