// The EventCorrelator port (client-go tools/record/events_cache.go): identical events counted on
// the first one, ten messages of one reason within ten minutes combined, and the per-object token
// bucket (25, then one per 5 minutes).
import { describe, expect, it } from 'vitest';
import { EventCorrelator, type LegacyEvent } from './event-correlator.ts';

const S = 1_000_000_000n;
let named = 0;
const correlator = () => new EventCorrelator((name, at) => `${name}.combined.${at}.${named++}`);

function event(message: string, at: bigint, reason = 'SuccessfulCreate', name = `web.${at}`): LegacyEvent {
  return {
    name,
    namespace: 'default',
    involvedObject: { kind: 'ReplicaSet', namespace: 'default', name: 'web', uid: 'u1', apiVersion: 'apps/v1' },
    reason,
    message,
    source: { component: 'replicaset-controller' },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    type: 'Normal',
    reportingComponent: 'replicaset-controller',
    reportingInstance: '',
  };
}

describe('EventCorrelator', () => {
  it('counts a repeat of an identical event on the first one, keeping its name and firstTimestamp', () => {
    const c = correlator();
    const first = c.correlate(event('Back-off', 1n * S, 'BackOff', 'a'), 1n * S);
    expect(first).toMatchObject({ skip: false, patch: false, event: { name: 'a', count: 1 } });
    const again = c.correlate(event('Back-off', 5n * S, 'BackOff', 'b'), 5n * S);
    expect(again).toMatchObject({ skip: false, patch: true, event: { name: 'a', count: 2, firstTimestamp: 1n * S, lastTimestamp: 5n * S } });
    // Another message is another event.
    expect(c.correlate(event('other', 6n * S, 'BackOff', 'c'), 6n * S)).toMatchObject({ patch: false, event: { name: 'c', count: 1 } });
  });

  it('combines the tenth message of one reason within ten minutes, then counts on the combined event', () => {
    const c = correlator();
    for (let i = 0; i < 9; i++) expect(c.correlate(event(`Created pod: p${i}`, BigInt(i) * S), BigInt(i) * S)).toMatchObject({ patch: false, event: { message: `Created pod: p${i}` } });
    const tenth = c.correlate(event('Created pod: p9', 9n * S), 9n * S);
    expect(tenth).toMatchObject({ skip: false, patch: false, event: { message: '(combined from similar events): Created pod: p9', count: 1, reportingComponent: '', reportingInstance: '' } });
    const eleventh = c.correlate(event('Created pod: p10', 10n * S), 10n * S);
    expect(eleventh).toMatchObject({ patch: true, event: { message: '(combined from similar events): Created pod: p10', count: 2 } });
    expect(eleventh.skip === false && tenth.skip === false && eleventh.event.name === tenth.event.name).toBe(true);
  });

  it('starts over once ten minutes pass without a similar event', () => {
    const c = correlator();
    for (let i = 0; i < 9; i++) c.correlate(event(`m${i}`, BigInt(i) * S), BigInt(i) * S);
    const late = 9n * S + 601n * S;
    expect(c.correlate(event('m9', late), late)).toMatchObject({ event: { message: 'm9' } });
  });

  it('lets a source write 25 events about an object, then one per 5 minutes', () => {
    const c = correlator();
    const reasons = Array.from({ length: 30 }, (_, i) => `R${i}`);
    const written = reasons.map((r) => c.correlate(event('m', 0n, r, r), 0n)).filter((r) => !r.skip).length;
    expect(written).toBe(25);
    expect(c.correlate(event('m', 299n * S, 'Late', 'l1'), 299n * S).skip).toBe(true);
    expect(c.correlate(event('m', 300n * S, 'Late', 'l2'), 300n * S).skip).toBe(false);
    expect(c.correlate(event('m', 301n * S, 'Later', 'l3'), 301n * S).skip).toBe(true);
  });
});
