import { describe, expect, it } from 'vitest';
import { createNodePortAllocator, createServiceIPAllocator } from './context.ts';
import { decodeGoBase64 } from '../../go/base64.ts';
import { computePodQOS, imageTag } from './pod-spec.ts';
import { compareQuantities, parseQuantity } from './quantity.ts';
import { semanticEqual } from './shared.ts';

describe('decodeGoBase64', () => {
  it('matches encoding/base64 error positions', () => {
    const err = (s: string) => {
      const r = decodeGoBase64(s);
      return r.ok ? Buffer.from(r.bytes).toString() : r.error;
    };
    expect(err('aGVsbG8=')).toBe('hello');
    expect(err('aGVs\nbG8=')).toBe('hello');
    expect(err('hello')).toBe('illegal base64 data at input byte 4');
    expect(err('aGk')).toBe('illegal base64 data at input byte 0');
    expect(err('a===')).toBe('illegal base64 data at input byte 1');
    expect(err('aGk=x')).toBe('illegal base64 data at input byte 4');
    expect(err('aG!k')).toBe('illegal base64 data at input byte 2');
    expect(err('')).toBe('');
  });
});

describe('quantities and QoS', () => {
  it('compares quantities exactly', () => {
    expect(compareQuantities(parseQuantity('500m')!, parseQuantity('0.5')!)).toBe(0);
    expect(compareQuantities(parseQuantity('1Gi')!, parseQuantity('1024Mi')!)).toBe(0);
    expect(compareQuantities(parseQuantity('1G')!, parseQuantity('1Gi')!)).toBe(-1);
    expect(compareQuantities(parseQuantity('2e3')!, parseQuantity('2k')!)).toBe(0);
    expect(parseQuantity('abc')).toBeUndefined();
  });

  it('computes the QoS class as ComputePodQOS does', () => {
    const pod = (resources: object[]) => ({ spec: { containers: resources.map((r) => ({ resources: r })) } });
    expect(computePodQOS(pod([{}]))).toBe('BestEffort');
    expect(computePodQOS(pod([{ requests: { cpu: '100m' } }]))).toBe('Burstable');
    expect(computePodQOS(pod([{ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1000m', memory: '1024Mi' } }]))).toBe('Guaranteed');
    expect(computePodQOS(pod([{ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }, {}]))).toBe('Burstable');
    expect(computePodQOS({ spec: { resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } }, containers: [{}] } })).toBe('Guaranteed');
  });
});

describe('imageTag', () => {
  it('reports the tag ParseImageName would', () => {
    expect(imageTag('nginx')).toBe('latest');
    expect(imageTag('nginx:latest')).toBe('latest');
    expect(imageTag('nginx:1.27')).toBe('1.27');
    expect(imageTag('localhost:5000/team/app')).toBe('latest');
    expect(imageTag('registry.io/app@sha256:' + 'a'.repeat(64))).toBe('');
    expect(imageTag('Nginx')).toBe('');
  });
});

describe('allocators', () => {
  it('hands out service IPs and node ports once', () => {
    const ips = createServiceIPAllocator('10.96.0.0/30');
    expect(ips.allocateNext()).toBe('10.96.0.2');
    expect(() => ips.allocateNext()).toThrow('range is full');
    expect(ips.allocate('10.96.0.1')).toBeUndefined();
    expect(ips.allocate('10.96.0.1')).toBe('provided IP is already allocated');
    // Outside every ServiceCIDR (the MetaAllocator's ErrMismatchedNetwork), and the broadcast address.
    expect(ips.allocate('10.97.0.1')).toBe('the provided network does not match the current range');
    expect(ips.allocate('10.96.0.3')).toBe('the provided IP (10.96.0.3) is not in the valid range. The range of valid IPs is 10.96.0.0/30');
    const ports = createNodePortAllocator([30000, 30001]);
    expect([ports.allocateNext(), ports.allocateNext()]).toEqual([30000, 30001]);
    ports.release(30000);
    expect(ports.allocate(30000)).toBeUndefined();
    expect(ports.allocate(30000)).toBe('provided port is already allocated');
    expect([ports.has(30000), ports.has(30002)]).toEqual([true, false]);
  });

  it('answers dry runs without allocating, as ipallocator DryRun does', () => {
    const ips = createServiceIPAllocator('10.96.0.0/29');
    const dry = ips.dryRun();
    expect(dry.allocateNext()).toBe('10.96.0.0');
    expect(dry.allocate('10.96.0.3')).toBeUndefined();
    // Taken or not: the dry-run allocator checks the range only.
    expect(ips.allocate('10.96.0.3')).toBeUndefined();
    expect(dry.allocate('10.96.0.3')).toBeUndefined();
    expect(dry.allocate('10.97.0.1')).toBe('the provided IP (10.97.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/29');
    dry.release('10.96.0.3');
    expect(ips.allocate('10.96.0.3')).toBe('provided IP is already allocated');
    expect(ips.allocateNext()).toBe('10.96.0.2');
  });
});

describe('semanticEqual (apiequality.Semantic.DeepEqual)', () => {
  it('equates nil and empty slices and maps at any depth, and nothing else', () => {
    expect(semanticEqual({ a: [], b: {} }, {})).toBe(true);
    expect(semanticEqual({ spec: { volumes: [] } }, { spec: { volumes: null } })).toBe(true);
    expect(semanticEqual([], undefined)).toBe(true);
    expect(semanticEqual({ a: [1] }, { a: [] })).toBe(false);
    expect(semanticEqual({ a: '' }, {})).toBe(false);
    expect(semanticEqual({ a: 0 }, { a: 0 })).toBe(true);
  });
});
