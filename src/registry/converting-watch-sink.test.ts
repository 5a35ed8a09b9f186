import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apis/object.ts';
import { StatusError } from '../errors/status-error.ts';
import { convertingWatchSink } from './converting-watch-sink.ts';
import type { WatchEvent } from './watch.ts';

const obj = (name: string): KubeObject => ({ metadata: { name } });
const tick = () => new Promise((r) => setTimeout(r, 0));

function recorder() {
  const seen: Array<string> = [];
  return {
    seen,
    sink: {
      event: (e: WatchEvent) => seen.push(`${e.type}:${(e.object as KubeObject).metadata?.name ?? (e.object as { message?: string }).message}`),
      end: () => seen.push('end'),
    },
  };
}

describe('convertingWatchSink', () => {
  it('converts a synchronous burst in one batch and keeps bookmarks and end in place', async () => {
    const batches: number[] = [];
    const r = recorder();
    const sink = convertingWatchSink(r.sink, (objs) => {
      batches.push(objs.length);
      return objs.map((o) => ({ metadata: { name: `${o.metadata!.name}'` } }));
    });
    sink.event({ type: 'ADDED', object: obj('a') });
    sink.event({ type: 'BOOKMARK', object: obj('rv') });
    sink.event({ type: 'MODIFIED', object: obj('b') });
    sink.end();
    await tick();
    expect(batches).toEqual([2]);
    expect(r.seen).toEqual(["ADDED:a'", 'BOOKMARK:rv', "MODIFIED:b'", 'end']);
  });

  it('keeps order across asynchronous conversions', async () => {
    const r = recorder();
    const sink = convertingWatchSink(r.sink, async (objs) => {
      await tick();
      return objs;
    });
    sink.event({ type: 'ADDED', object: obj('a') });
    await Promise.resolve();
    await Promise.resolve();
    sink.event({ type: 'ADDED', object: obj('b') });
    sink.event({ type: 'DELETED', object: obj('a') });
    await tick();
    await tick();
    await tick();
    expect(r.seen).toEqual(['ADDED:a', 'ADDED:b', 'DELETED:a']);
  });

  it('ends with an ERROR event when a conversion fails and drops what follows', async () => {
    const r = recorder();
    const sink = convertingWatchSink(r.sink, () => {
      throw new StatusError({ message: 'conversion failed', code: 500 });
    });
    sink.event({ type: 'ADDED', object: obj('a') });
    await tick();
    sink.event({ type: 'ADDED', object: obj('b') });
    await tick();
    expect(r.seen).toEqual(['ERROR:conversion failed', 'end']);
  });
});
