import { describe, expect, it } from 'vitest';
import { WorkQueue } from './work-queue.ts';

const immediates = () => process.getActiveResourcesInfo().filter((r) => r === 'Immediate').length;

describe('WorkQueue', () => {
  it('runs each queued key once, on a later macrotask, and tells waiters when it is idle', async () => {
    const seen: string[] = [];
    const queue = new WorkQueue((key) => void seen.push(key), { onError: () => {} });
    queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(seen).toEqual([]);
    expect(queue.idle).toBe(false);
    await queue.whenIdle();
    expect(seen).toEqual(['a', 'b']);
    expect(queue.idle).toBe(true);
  });

  it('stop() cancels a scheduled drain, so nothing holds the queue (and its cluster) until the event loop turns', async () => {
    const seen: string[] = [];
    const queue = new WorkQueue((key) => void seen.push(key), { onError: () => {} });
    const before = immediates();
    queue.add('a');
    expect(immediates()).toBe(before + 1);
    queue.stop();
    expect(immediates()).toBe(before);
    expect(queue.idle).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([]);
    queue.add('b'); // a stopped queue takes no work
    expect(immediates()).toBe(before);
  });
});
