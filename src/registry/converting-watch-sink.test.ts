import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../apis/object.ts';
import { StatusError } from '../errors/status-error.ts';
import { convertingWatchSink } from './converting-watch-sink.ts';
import type { WatchEvent } from './watch.ts';

const obj = (name: string): KubeObject => ({ metadata: { name } });
const tick = () => new Promise((r) => setTimeout(r, 0));
const renamed = (o: KubeObject): KubeObject => ({ metadata: { name: `${o.metadata!.name}'` } });

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
  it('converts each event on its own, even a synchronous burst, and keeps bookmarks and end in place', async () => {
    const calls: string[] = [];
    const r = recorder();
    const sink = convertingWatchSink(r.sink, (o) => {
      calls.push(o.metadata!.name!);
      return renamed(o);
    });
    sink.event({ type: 'ADDED', object: obj('a') });
    sink.event({ type: 'BOOKMARK', object: obj('rv') });
    sink.event({ type: 'MODIFIED', object: obj('b') });
    sink.event({ type: 'DELETED', object: obj('c') });
    sink.end();
    await tick();
    expect(calls).toEqual(['a', 'b', 'c']);
    expect(r.seen).toEqual(["ADDED:a'", 'BOOKMARK:rv', "MODIFIED:b'", "DELETED:c'", 'end']);
  });

  it('keeps order across asynchronous conversions, one at a time', async () => {
    const r = recorder();
    let inFlight = 0;
    let most = 0;
    const sink = convertingWatchSink(r.sink, async (o) => {
      most = Math.max(most, ++inFlight);
      await tick();
      inFlight--;
      return o;
    });
    sink.event({ type: 'ADDED', object: obj('a') });
    await Promise.resolve();
    await Promise.resolve();
    sink.event({ type: 'ADDED', object: obj('b') });
    sink.event({ type: 'DELETED', object: obj('a') });
    for (let i = 0; i < 5; i++) await tick();
    expect(r.seen).toEqual(['ADDED:a', 'ADDED:b', 'DELETED:a']);
    expect(most).toBe(1);
  });

  it('ends the stream without an event when a conversion fails and drops what follows', async () => {
    const r = recorder();
    const sink = convertingWatchSink(r.sink, (o) => {
      if (o.metadata!.name === 'b') throw new StatusError({ message: 'conversion failed', code: 500 });
      return o;
    });
    sink.event({ type: 'ADDED', object: obj('a') });
    sink.event({ type: 'ADDED', object: obj('b') });
    sink.event({ type: 'ADDED', object: obj('c') });
    await tick();
    sink.event({ type: 'ADDED', object: obj('d') });
    sink.end();
    await tick();
    expect(r.seen).toEqual(['ADDED:a', 'end']);
  });

  it('ends the stream once when an asynchronous conversion rejects', async () => {
    const r = recorder();
    const sink = convertingWatchSink(r.sink, () => Promise.reject(new Error('webhook down')));
    sink.event({ type: 'ADDED', object: obj('a') });
    sink.end();
    await tick();
    expect(r.seen).toEqual(['end']);
  });

  it('stops converting once stopped: queued events are dropped, nothing is delivered', async () => {
    const r = recorder();
    const calls: string[] = [];
    const sink = convertingWatchSink(r.sink, async (o) => {
      calls.push(o.metadata!.name!);
      await tick();
      return o;
    });
    sink.event({ type: 'ADDED', object: obj('a') });
    sink.event({ type: 'ADDED', object: obj('b') });
    await Promise.resolve();
    await Promise.resolve();
    sink.stop();
    sink.event({ type: 'ADDED', object: obj('c') });
    sink.end();
    for (let i = 0; i < 3; i++) await tick();
    expect(calls).toEqual(['a']);
    expect(r.seen).toEqual([]);
  });

  it('swallows a sink that throws while ending after a failed conversion', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      let ends = 0;
      const sink = convertingWatchSink(
        {
          event: () => undefined,
          end: () => {
            ends++;
            throw new Error('stream already closed');
          },
        },
        () => Promise.reject(new Error('conversion failed')),
      );
      sink.event({ type: 'ADDED', object: obj('a') });
      for (let i = 0; i < 3; i++) await tick();
      expect(ends).toBe(1);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('ends the stream when delivering an event throws, without an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      const seen: string[] = [];
      const sink = convertingWatchSink(
        {
          event: () => {
            throw new Error('encoder broke');
          },
          end: () => seen.push('end'),
        },
        (o) => o,
      );
      sink.event({ type: 'ADDED', object: obj('a') });
      sink.event({ type: 'ADDED', object: obj('b') });
      for (let i = 0; i < 3; i++) await tick();
      expect(seen).toEqual(['end']);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
