// Per-cluster state the built-in strategies need: the Service IP and NodePort allocators and a
// clock. Each cluster gets its own, so two clusters never hand out the same ClusterIP.

export interface ServiceIPAllocator {
  /** The next free IP of the service range (pkg/registry/core/service/ipallocator AllocateNext). */
  allocateNext(): string;
  /** Claims a requested IP; the error text the real allocator gives, or undefined on success. */
  allocate(ip: string): string | undefined;
  release(ip: string): void;
  /**
   * ipallocator's DryRun: answers without allocating; AllocateNext gives the range's network
   * address and Allocate checks the range only (ipallocator.go allocateService/allocateNextService
   * with dryRun, which the MetaAllocator's DryRun hands out).
   */
  dryRun(): ServiceIPAllocator;
}

export interface NodePortAllocator {
  allocateNext(): number;
  /** Claims a requested port; the error text the real allocator gives, or undefined on success. */
  allocate(port: number): string | undefined;
  release(port: number): void;
  /** Whether the port is allocated (what a dry-run operation checks a requested port against). */
  has(port: number): boolean;
}

export interface BuiltinContext {
  serviceIPs: ServiceIPAllocator;
  nodePorts: NodePortAllocator;
  /** Used where a strategy stamps a time (a Pod's SchedulingGated condition). */
  now: () => Date;
}

/** kube-apiserver's default --service-cluster-ip-range. */
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';
/** kube-apiserver's default --service-node-port-range. */
export const DEFAULT_NODE_PORT_RANGE: readonly [number, number] = [30000, 32767];

export function createBuiltinContext(overrides: Partial<BuiltinContext> = {}): BuiltinContext {
  return {
    serviceIPs: overrides.serviceIPs ?? createServiceIPAllocator(),
    nodePorts: overrides.nodePorts ?? createNodePortAllocator(),
    now: overrides.now ?? (() => new Date()),
  };
}

/**
 * An IPv4 allocator over a CIDR. The real one picks at random; this one counts up so fixtures are
 * deterministic. The first address after the network address is kept back: the real control plane
 * gives it to `default/kubernetes`, which claims it with allocate().
 */
export function createServiceIPAllocator(cidr: string = DEFAULT_SERVICE_CIDR): ServiceIPAllocator {
  const [base, bitsText] = cidr.split('/') as [string, string];
  const bits = Number(bitsText);
  const network = ipToInt(base) & (bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0);
  const size = 2 ** (32 - bits);
  const first = network + 1;
  const last = network + size - 2; // broadcast excluded
  const used = new Set<number>();
  let cursor = first + 1;
  const notInRange = (ip: string) => `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${cidr}`;
  const dryRun: ServiceIPAllocator = {
    allocateNext: () => intToIp(network),
    allocate(ip) {
      const n = parseIPv4(ip);
      return n === undefined || n < first || n > last ? notInRange(ip) : undefined;
    },
    release() {},
    dryRun: () => dryRun,
  };
  return {
    allocateNext() {
      for (let n = 0; n <= last - first; n++) {
        const candidate = first + ((cursor - first + n) % (last - first + 1));
        if (candidate === first) continue;
        if (!used.has(candidate)) {
          used.add(candidate);
          cursor = candidate + 1;
          return intToIp(candidate);
        }
      }
      throw new Error('range is full');
    },
    allocate(ip) {
      const n = parseIPv4(ip);
      // MultiCIDRServiceAllocator (GA, on in v1.36): the MetaAllocator finds no ServiceCIDR holding
      // the address (ipallocator/cidrallocator.go ErrMismatchedNetwork); inside the prefix, the
      // network and broadcast addresses are out of the allocator's range (ipallocator.go).
      if (n === undefined || n < network || n > network + size - 1) return 'the provided network does not match the current range';
      if (n < first || n > last) return notInRange(ip);
      if (used.has(n)) return 'provided IP is already allocated';
      used.add(n);
      return undefined;
    },
    release(ip) {
      const n = parseIPv4(ip);
      if (n !== undefined) used.delete(n);
    },
    dryRun: () => dryRun,
  };
}

export function createNodePortAllocator(range: readonly [number, number] = DEFAULT_NODE_PORT_RANGE): NodePortAllocator {
  const [low, high] = range;
  const used = new Set<number>();
  let cursor = low;
  return {
    allocateNext() {
      for (let n = 0; n <= high - low; n++) {
        const candidate = low + ((cursor - low + n) % (high - low + 1));
        if (!used.has(candidate)) {
          used.add(candidate);
          cursor = candidate + 1;
          return candidate;
        }
      }
      throw new Error('range is full');
    },
    allocate(port) {
      if (port < low || port > high) {
        return `provided port is not in the valid range. The range of valid ports is ${low}-${high}`;
      }
      if (used.has(port)) return 'provided port is already allocated';
      used.add(port);
      return undefined;
    },
    release(port) {
      used.delete(port);
    },
    has: (port) => used.has(port),
  };
}

function parseIPv4(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
  return ipToInt(ip);
}

function ipToInt(ip: string): number {
  return ip.split('.').reduce((acc, p) => acc * 256 + Number(p), 0) >>> 0;
}

function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}
