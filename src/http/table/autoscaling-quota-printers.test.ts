// printResourceQuota's cells on objects built here (the wire test cannot fix status.used where a
// quota controller recomputes it): sorted resources, used/hard with "0" for unused, limits.* apart.
import { describe, expect, it } from 'vitest';
import { resourceQuotas } from './autoscaling-quota-printers.ts';

const NOW = new Date('2026-01-01T00:10:00Z');

describe('printResourceQuota', () => {
  it('splits requests and limits and prints used/hard in name order', () => {
    const quota = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'compute', creationTimestamp: '2026-01-01T00:00:00Z' },
      status: { hard: { 'requests.cpu': '1', pods: '10', 'limits.memory': '2Gi', 'limits.cpu': '2' }, used: { pods: '3', 'requests.cpu': '500m', 'limits.cpu': '1' } },
    };
    expect(resourceQuotas.print(quota, NOW).cells).toEqual(['compute', 'pods: 3/10, requests.cpu: 500m/1', 'limits.cpu: 1/2, limits.memory: 0/2Gi', '10m']);
  });

  it('prints empty columns for a quota without status', () => {
    expect(resourceQuotas.print({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'new', creationTimestamp: '2026-01-01T00:00:00Z' } }, NOW).cells).toEqual(['new', '', '', '10m']);
  });
});
