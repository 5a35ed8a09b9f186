// The Service strategy: SetDefaults_Service, the svcStrategy of pkg/registry/core/service/strategy.go
// (NormalizeClusterIPs, patchAllocatedValues, dropTypeDependentFields) and the allocation the
// Service REST does around it (pkg/registry/core/service/storage/alloc.go), for a single-stack IPv4
// cluster. The allocation runs in beginCreate/beginUpdate, once per write after mutating admission
// as the real BeginCreate/BeginUpdate (a webhook's patch re-runs prepareForCreate/Update, which
// allocate nothing). Allocation errors come from the REST before validation in the real server;
// here they are held back and returned (or thrown) by validate(). What a write allocated is kept or handed back
// by finishWrite, once the store committed or refused the write; a dry run allocates nothing.
// Upstream read at the newest kubernetes/kubernetes versions the index holds (no v1.36 tag there):
// storage/alloc.go, the IPAddress-based ipallocator/ipallocator.go and portallocator/operation.go.
import { type FieldError, fieldError, fieldPath } from '../../errors/field-error.ts';
import { internalError, type StatusError } from '../../errors/status-error.ts';
import type { KubeObject } from '../object.ts';
import { isPlainObject } from '../object.ts';
import type { Strategy, StrategyRequest } from '../resource-type.ts';
import type { BuiltinContext, NodePortAllocator } from './context.ts';
import { arrAt, child, clone, getIn, type JsonObject, objAt, semanticEqual, setDefault, unset } from './shared.ts';
import { externallyAccessible, needsHealthCheck, validateServiceClusterIPsRelatedFields, validateServiceSpec, validateServiceUpdateTransitions } from './service-validation.ts';

const CLUSTER_FAMILY = 'IPv4';

/** SetDefaults_Service (pkg/apis/core/v1/defaults.go). */
export function defaultService(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  setDefault(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    if (unset(getIn(spec, ['sessionAffinityConfig', 'clientIP', 'timeoutSeconds']))) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  setDefault(spec, 'type', 'ClusterIP');
  for (const port of ports(spec)) {
    setDefault(port, 'protocol', 'TCP');
    if (unset(port.targetPort) || port.targetPort === 0) port.targetPort = port.port;
  }
  if (externallyAccessible(spec)) setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  if (unset(spec.internalTrafficPolicy) && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type as string)) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') {
    if (unset(spec.allocateLoadBalancerNodePorts)) spec.allocateLoadBalancerNodePorts = true;
    const ingress = arrAt(objAt(objAt(obj, 'status'), 'loadBalancer'), 'ingress') ?? [];
    for (const ing of ingress) if (isPlainObject(ing) && !unset(ing.ip) && unset(ing.ipMode)) ing.ipMode = 'VIP';
  }
}

/** ServiceStatus.LoadBalancer is a non-pointer struct: Go always writes `loadBalancer: {}`. */
export function serviceStatusShape(obj: KubeObject): void {
  const status = child(obj, 'status');
  if (!isPlainObject(status.loadBalancer)) status.loadBalancer = {};
}

export function serviceStrategy(ctx: BuiltinContext): Strategy {
  const pending = new WeakMap<KubeObject, FieldError[]>();
  const txns = new WeakMap<KubeObject, AllocationTxn>();
  // An allocation failure that is no field error (a taken health-check port): thrown by validate,
  // where the real BeginCreate/BeginUpdate error would already have ended the request.
  const fatal = new WeakMap<KubeObject, StatusError>();
  const fail = (obj: KubeObject, err: StatusError | undefined) => {
    if (err) fatal.set(obj, err);
  };
  const failed = (obj: KubeObject): FieldError[] | undefined => {
    const err = fatal.get(obj);
    if (err) throw err;
    return pending.get(obj);
  };
  const hold = (obj: KubeObject, errs: FieldError[]) => {
    if (errs.length) pending.set(obj, [...(pending.get(obj) ?? []), ...errs]);
    return errs.length === 0;
  };
  const begin = (obj: KubeObject, request: StrategyRequest | undefined): BuiltinContext => {
    const txn = allocationTxn(ctx, request?.dryRun === true);
    txns.set(obj, txn);
    return txn.ctx;
  };
  return {
    prepareForCreate(obj) {
      obj.status = {};
      const spec = child(obj, 'spec');
      normalizeClusterIPs(undefined, spec);
    },
    // storage.go beginCreate: allocation follows mutating admission (which may have changed what
    // is requested, and sees no allocated values), once per write.
    beginCreate(obj, request) {
      const spec = child(obj, 'spec');
      if (spec.type === 'ExternalName') return;
      const alloc = begin(obj, request);
      if (!hold(obj, initIPFamilyFields(spec, undefined))) return;
      if (!hold(obj, allocClusterIPs(spec, alloc))) return;
      if (needsNodePort(spec) && !hold(obj, initNodePorts(spec, alloc))) return;
      if (needsHealthCheck(spec)) fail(obj, allocHealthCheckNodePort(spec, alloc));
    },
    prepareForUpdate(obj, old) {
      if (old.status === undefined) delete obj.status;
      else obj.status = clone(old.status);
      const spec = child(obj, 'spec');
      const oldSpec = objAt(old, 'spec') ?? {};
      patchAllocatedValues(spec, oldSpec);
      normalizeClusterIPs(oldSpec, spec);
      dropTypeDependentFields(spec, oldSpec);
      if (spec.type !== 'LoadBalancer' && isPlainObject(obj.status)) obj.status.loadBalancer = {};
    },
    // storage.go beginUpdate, after mutating admission as beginCreate.
    beginUpdate(obj, old, request) {
      const spec = child(obj, 'spec');
      const oldSpec = objAt(old, 'spec') ?? {};
      const alloc = begin(obj, request);
      if (spec.type !== 'ExternalName' && !hold(obj, initIPFamilyFields(spec, oldSpec))) return;
      if (!updateClusterIPs(spec, oldSpec, alloc, (errs) => hold(obj, errs))) return;
      fail(obj, updateNodePorts(spec, oldSpec, alloc, (errs) => hold(obj, errs)));
    },
    // An allocation error ends the request alone; else the validation of the allocated object.
    validate: (obj) => failed(obj) ?? validateServiceSpec(obj),
    validateUpdate: (obj, old) => failed(obj) ?? [...validateServiceUpdateTransitions(objAt(obj, 'spec') ?? {}, objAt(old, 'spec') ?? {}), ...validateServiceSpec(obj)],
    // The Service REST's FinishFunc (storage.go beginCreate/beginUpdate): once the store committed
    // the write, the releases it held back are done; if anything refused it (validation, any
    // admission plugin, the store), what it allocated goes back and the old allocations stay.
    finishWrite(obj, committed) {
      const txn = txns.get(obj);
      txns.delete(obj);
      pending.delete(obj);
      fatal.delete(obj);
      if (committed) txn?.commit();
      else txn?.revert();
    },
  };
}

interface AllocationTxn {
  /** Allocators that record what they hand out and hold releases back until commit. */
  ctx: BuiltinContext;
  commit(): void;
  revert(): void;
}

/**
 * The Service REST's allocation transaction (storage/transaction.go, portallocator operation.go):
 * allocations happen at once and are released on revert; releases wait for the commit. A dry run
 * allocates through the dry-run allocators, which keep nothing, and commits and reverts nothing.
 */
function allocationTxn(ctx: BuiltinContext, dryRun: boolean): AllocationTxn {
  if (dryRun) return { ctx: { ...ctx, serviceIPs: ctx.serviceIPs.dryRun(), nodePorts: dryRunNodePorts(ctx.nodePorts) }, commit: () => {}, revert: () => {} };
  const ips: string[] = [];
  const ports: number[] = [];
  const releases: (() => void)[] = [];
  const txnCtx: BuiltinContext = {
    ...ctx,
    serviceIPs: {
      allocateNext: () => {
        const ip = ctx.serviceIPs.allocateNext();
        ips.push(ip);
        return ip;
      },
      allocate: (ip) => {
        const err = ctx.serviceIPs.allocate(ip);
        if (!err) ips.push(ip);
        return err;
      },
      release: (ip) => void releases.push(() => ctx.serviceIPs.release(ip)),
      dryRun: () => ctx.serviceIPs.dryRun(),
    },
    nodePorts: {
      allocateNext: () => {
        const port = ctx.nodePorts.allocateNext();
        ports.push(port);
        return port;
      },
      allocate: (port) => {
        const err = ctx.nodePorts.allocate(port);
        if (!err) ports.push(port);
        return err;
      },
      release: (port) => void releases.push(() => ctx.nodePorts.release(port)),
      has: (port) => ctx.nodePorts.has(port),
    },
  };
  return {
    ctx: txnCtx,
    commit: () => releases.forEach((release) => release()),
    revert: () => {
      ips.forEach((ip) => ctx.serviceIPs.release(ip));
      ports.forEach((port) => ctx.nodePorts.release(port));
    },
  };
}

/**
 * The dry-run side of portallocator/operation.go (PortAllocationOperation with dryRun): a
 * requested port is refused when taken, or already claimed by this request, but not checked
 * against the range; a port to choose is a placeholder counting up from 32768 past the highest
 * this request claimed; nothing is allocated or released.
 */
function dryRunNodePorts(real: NodePortAllocator): NodePortAllocator {
  const claimed: number[] = [];
  const allocate = (port: number): string | undefined => {
    if (real.has(port) || claimed.includes(port)) return 'provided port is already allocated';
    claimed.push(port);
    return undefined;
  };
  return {
    allocate,
    allocateNext: () => {
      const port = (claimed.length ? Math.max(...claimed) : 32768) + 1;
      claimed.push(port);
      return port;
    },
    release: () => {},
    has: (port) => real.has(port),
  };
}

const ports = (spec: JsonObject): JsonObject[] => (arrAt(spec, 'ports') ?? []).filter(isPlainObject);
const clusterIPs = (spec: JsonObject): string[] => (arrAt(spec, 'clusterIPs') ?? []).filter((v): v is string => typeof v === 'string');
const needsClusterIP = (spec: JsonObject) => spec.type !== 'ExternalName';
const needsNodePort = (spec: JsonObject) => spec.type === 'NodePort' || spec.type === 'LoadBalancer';
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

function shouldAllocateNodePorts(spec: JsonObject): boolean {
  if (spec.type === 'NodePort') return true;
  if (spec.type === 'LoadBalancer') return spec.allocateLoadBalancerNodePorts !== false;
  return false;
}

/** NormalizeClusterIPs: keeps the singular and plural fields in step. */
function normalizeClusterIPs(oldSpec: JsonObject | undefined, spec: JsonObject): void {
  const ip = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
  if (!oldSpec) {
    if (ip !== '' && clusterIPs(spec).length === 0) spec.clusterIPs = [ip];
    return;
  }
  const oldIP = typeof oldSpec.clusterIP === 'string' ? oldSpec.clusterIP : '';
  if (clusterIPs(oldSpec).length > 0 && clusterIPs(spec).length === 0 && oldIP === ip) {
    spec.clusterIPs = clone(oldSpec.clusterIPs);
  }
  if (oldIP !== ip) {
    const same = semanticEqual(clusterIPs(oldSpec), clusterIPs(spec));
    if (oldIP !== '' && ip === '') {
      if (same) delete spec.clusterIPs;
    } else if (same) {
      spec.clusterIPs = [ip];
    }
  }
}

/** patchAllocatedValues: a resubmitted manifest keeps what the server allocated. */
function patchAllocatedValues(spec: JsonObject, oldSpec: JsonObject): void {
  if (needsClusterIP(oldSpec) && needsClusterIP(spec)) {
    if (unset(spec.clusterIP) && !unset(oldSpec.clusterIP)) spec.clusterIP = oldSpec.clusterIP;
    if (clusterIPs(spec).length === 0 && oldSpec.clusterIPs !== undefined) spec.clusterIPs = clone(oldSpec.clusterIPs);
  }
  if (needsNodePort(oldSpec) && needsNodePort(spec)) {
    const byName = new Map<string, number>();
    for (const p of ports(oldSpec)) byName.set(typeof p.name === 'string' ? p.name : '', num(p.nodePort));
    for (const p of ports(spec)) {
      const old = byName.get(typeof p.name === 'string' ? p.name : '') ?? 0;
      if (num(p.nodePort) === 0 && old !== 0) p.nodePort = old;
    }
  }
  if (needsHealthCheck(oldSpec) && needsHealthCheck(spec) && num(spec.healthCheckNodePort) === 0 && num(oldSpec.healthCheckNodePort) !== 0) {
    spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  }
}

/** dropTypeDependentFields: switching type wipes what the server had filled in for the old type. */
function dropTypeDependentFields(spec: JsonObject, oldSpec: JsonObject): void {
  if (needsClusterIP(oldSpec) && !needsClusterIP(spec)) {
    if (spec.clusterIP === oldSpec.clusterIP && semanticEqual(clusterIPs(oldSpec), clusterIPs(spec))) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (semanticEqual(oldSpec.ipFamilies, spec.ipFamilies)) delete spec.ipFamilies;
    if ((oldSpec.ipFamilyPolicy ?? '') === (spec.ipFamilyPolicy ?? '')) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(oldSpec) && !needsNodePort(spec)) {
    const oldPorts = new Set(ports(oldSpec).map((p) => num(p.nodePort)).filter((n) => n !== 0));
    if (ports(spec).every((p) => num(p.nodePort) === 0 || oldPorts.has(num(p.nodePort)))) {
      for (const p of ports(spec)) delete p.nodePort;
    }
  }
  if (needsHealthCheck(oldSpec) && !needsHealthCheck(spec) && num(oldSpec.healthCheckNodePort) === num(spec.healthCheckNodePort)) {
    delete spec.healthCheckNodePort;
  }
  if (oldSpec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (typeof spec.allocateLoadBalancerNodePorts === 'boolean' && spec.allocateLoadBalancerNodePorts === oldSpec.allocateLoadBalancerNodePorts) {
      delete spec.allocateLoadBalancerNodePorts;
    }
    if ((spec.loadBalancerClass ?? null) === (oldSpec.loadBalancerClass ?? null)) delete spec.loadBalancerClass;
  }
  if (needsNodePort(oldSpec) && !needsNodePort(spec) && (spec.externalTrafficPolicy ?? '') === (oldSpec.externalTrafficPolicy ?? '')) {
    delete spec.externalTrafficPolicy;
  }
}

/** initIPFamilyFields (storage/alloc.go) for a cluster whose only family is IPv4. */
function initIPFamilyFields(spec: JsonObject, oldSpec: JsonObject | undefined): FieldError[] {
  const headlessSelectorless = spec.clusterIP === 'None' && Object.keys(objAt(spec, 'selector') ?? {}).length === 0;
  if (unset(spec.ipFamilyPolicy)) {
    if (oldSpec && !unset(oldSpec.ipFamilyPolicy)) spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
    else spec.ipFamilyPolicy = headlessSelectorless ? 'RequireDualStack' : 'SingleStack';
  }
  // Loose pre-validation first, so the rest need not consider malformed input.
  const related = validateServiceClusterIPsRelatedFields(spec);
  if (related.length) return related;
  const errs: FieldError[] = [];
  const policy = spec.ipFamilyPolicy;
  if (oldSpec) {
    if (policy === 'SingleStack') {
      // With clusterIPs and ipFamilies unchanged, SingleStack is clear intent to drop the secondary.
      if (semanticEqual(clusterIPs(oldSpec), clusterIPs(spec)) && spec.clusterIP === oldSpec.clusterIP && clusterIPs(spec).length > 1) spec.clusterIPs = clusterIPs(spec).slice(0, 1);
      if (semanticEqual(oldSpec.ipFamilies ?? null, spec.ipFamilies ?? null) && (arrAt(spec, 'ipFamilies')?.length ?? 0) > 1) spec.ipFamilies = arrAt(spec, 'ipFamilies')!.slice(0, 1);
    } else {
      const reduced = (field: string) => {
        const now = arrAt(spec, field)?.length ?? 0;
        return now > 0 && now < (arrAt(oldSpec, field)?.length ?? 0);
      };
      if (reduced('clusterIPs')) errs.push(fieldError.invalid('spec.ipFamilyPolicy', policy, "must be 'SingleStack' to release the secondary cluster IP"));
      if (reduced('ipFamilies')) errs.push(fieldError.invalid('spec.ipFamilyPolicy', policy, "must be 'SingleStack' to release the secondary IP family"));
    }
  }
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if (clusterIPs(spec).length === 2) errs.push(fieldError.invalid('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if ((arrAt(spec, 'ipFamilies')?.length ?? 0) === 2) errs.push(fieldError.invalid('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  const families = (arrAt(spec, 'ipFamilies') ?? []).slice() as unknown[];
  clusterIPs(spec).forEach((ip, i) => {
    if (ip === 'None' || i < families.length) return;
    const family = ip.includes(':') ? 'IPv6' : 'IPv4';
    if (family !== CLUSTER_FAMILY) {
      errs.push(fieldError.invalid(fieldPath.index('spec.clusterIPs', i), clusterIPs(spec), `${family} is not configured on this cluster`));
    } else {
      families.push(family);
    }
  });
  if (errs.length) return errs;
  if (families.length) spec.ipFamilies = families;
  if (headlessSelectorless) {
    if (families.length === 0) families.push(CLUSTER_FAMILY);
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4');
    spec.ipFamilies = families;
    return [];
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack') {
    errs.push(fieldError.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'));
  }
  families.forEach((f, i) => {
    if (f !== CLUSTER_FAMILY) errs.push(fieldError.invalid(fieldPath.index('spec.ipFamilies', i), f, 'not configured on this cluster'));
  });
  if (errs.length) return errs;
  if (families.length === 0) spec.ipFamilies = [CLUSTER_FAMILY];
  return [];
}

/**
 * An allocator's AllocateNext, its failure ("range is full") answered as alloc.go answers it: an
 * internal error naming what was being allocated ("failed to allocate a nodePort: range is full").
 */
function allocateNextOr<T>(next: () => T, what: string): T {
  try {
    return next();
  } catch (err) {
    throw internalError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** allocClusterIPs: one IP per family, honouring a requested one; headless gets none. */
function allocClusterIPs(spec: JsonObject, ctx: BuiltinContext): FieldError[] {
  const current = clusterIPs(spec);
  if (current[0] === 'None') return [];
  const families = (arrAt(spec, 'ipFamilies') ?? []) as unknown[];
  const ips = families.map((_, i) => current[i] ?? '');
  const requested = clone(ips);
  for (let i = 0; i < ips.length; i++) {
    if (ips[i] === '') {
      ips[i] = allocateNextOr(() => ctx.serviceIPs.allocateNext(), 'failed to allocate a serviceIP');
    } else {
      const err = ctx.serviceIPs.allocate(ips[i]!);
      if (err) {
        return [fieldError.invalid('spec.clusterIPs', requested, `failed to allocate IP ${ips[i]}: ${err}`)];
      }
    }
  }
  spec.clusterIPs = ips;
  if (ips[0] !== undefined) spec.clusterIP = ips[0];
  return [];
}

/** initNodePorts: ports sharing a port number share a NodePort. */
function initNodePorts(spec: JsonObject, ctx: BuiltinContext): FieldError[] {
  const byPort = new Map<number, number>();
  const list = ports(spec);
  for (let i = 0; i < list.length; i++) {
    const p = list[i]!;
    if (num(p.nodePort) === 0 && !shouldAllocateNodePorts(spec)) continue;
    const allocated = byPort.get(num(p.port)) ?? 0;
    if (allocated === 0) {
      const requested = list.slice(i).find((q) => num(q.port) === num(p.port) && num(q.nodePort) !== 0);
      const np = requested ? num(requested.nodePort) : 0;
      if (np !== 0) {
        const err = ctx.nodePorts.allocate(np);
        if (err) return [fieldError.invalid(fieldPath.child(fieldPath.index('spec.ports', i), 'nodePort'), np, err)];
        p.nodePort = np;
        byPort.set(num(p.port), np);
      } else {
        const next = allocateNextOr(() => ctx.nodePorts.allocateNext(), 'failed to allocate a nodePort');
        p.nodePort = next;
        byPort.set(num(p.port), next);
      }
    } else if (num(p.nodePort) !== allocated) {
      if (num(p.nodePort) === 0) {
        p.nodePort = allocated;
      } else {
        const err = ctx.nodePorts.allocate(num(p.nodePort));
        if (err) return [fieldError.invalid(fieldPath.child(fieldPath.index('spec.ports', i), 'nodePort'), p.nodePort, err)];
      }
    }
  }
  return [];
}

/** allocHealthCheckNodePort: a requested port that is taken ends the request with a 500 (alloc.go). */
function allocHealthCheckNodePort(spec: JsonObject, ctx: BuiltinContext): StatusError | undefined {
  const requested = num(spec.healthCheckNodePort);
  if (requested === 0) {
    // AllocateNext answers port 0 with its error, and alloc.go names that port.
    spec.healthCheckNodePort = allocateNextOr(() => ctx.nodePorts.allocateNext(), 'failed to allocate a HealthCheck NodePort 0');
    return undefined;
  }
  const err = ctx.nodePorts.allocate(requested);
  return err ? internalError(`failed to allocate requested HealthCheck NodePort ${requested}: ${err}`) : undefined;
}

/** updateClusterIPs: ExternalName transitions allocate or release. */
function updateClusterIPs(spec: JsonObject, oldSpec: JsonObject, ctx: BuiltinContext, hold: (errs: FieldError[]) => boolean): boolean {
  if (oldSpec.type === 'ExternalName' && spec.type !== 'ExternalName') return hold(allocClusterIPs(spec, ctx));
  if (clusterIPs(oldSpec)[0] === 'None') return true;
  if (oldSpec.type !== 'ExternalName' && spec.type === 'ExternalName') {
    for (const ip of clusterIPs(oldSpec)) ctx.serviceIPs.release(ip);
  }
  return true;
}

/** txnUpdateNodePorts / updateNodePorts / updateHealthCheckNodePort; the transaction holds the releases back. */
function updateNodePorts(spec: JsonObject, oldSpec: JsonObject, ctx: BuiltinContext, hold: (errs: FieldError[]) => boolean): StatusError | undefined {
  const oldNumbers = ports(oldSpec).map((p) => num(p.nodePort)).filter((n) => n !== 0);
  if (needsNodePort(oldSpec) && !needsNodePort(spec)) oldNumbers.forEach((n) => ctx.nodePorts.release(n));
  if (needsNodePort(spec)) {
    const claimed = new Set<number>();
    const list = ports(spec);
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      if (num(p.nodePort) === 0 && !shouldAllocateNodePorts(spec)) continue;
      if (num(p.nodePort) !== 0) {
        if (!oldNumbers.includes(num(p.nodePort)) && !claimed.has(num(p.nodePort))) {
          const err = ctx.nodePorts.allocate(num(p.nodePort));
          if (err && !hold([fieldError.invalid(fieldPath.child(fieldPath.index('spec.ports', i), 'nodePort'), p.nodePort, err)])) return undefined;
          claimed.add(num(p.nodePort));
        }
      } else {
        p.nodePort = allocateNextOr(() => ctx.nodePorts.allocateNext(), 'failed to allocate a nodePort');
      }
    }
    const kept = new Set(list.map((p) => num(p.nodePort)));
    for (const n of oldNumbers) if (!kept.has(n)) ctx.nodePorts.release(n);
  }
  const neededHC = needsHealthCheck(oldSpec);
  const needsHC = needsHealthCheck(spec);
  if (neededHC && !needsHC && num(oldSpec.healthCheckNodePort) !== 0) ctx.nodePorts.release(num(oldSpec.healthCheckNodePort));
  return !neededHC && needsHC ? allocHealthCheckNodePort(spec, ctx) : undefined;
}

/**
 * releaseAllocatedResources (pkg/registry/core/service/storage/alloc.go), which the Service REST
 * runs once a Service is deleted: its ClusterIPs, NodePorts and health-check NodePort go back to
 * the allocators, so a later Service (the recreated `kubernetes` one among them) can claim them.
 */
export function releaseServiceAllocations(service: KubeObject, ctx: BuiltinContext): void {
  const spec = objAt(service, 'spec') ?? {};
  for (const ip of clusterIPs(spec)) if (ip !== 'None' && ip !== '') ctx.serviceIPs.release(ip);
  for (const p of ports(spec)) if (num(p.nodePort) !== 0) ctx.nodePorts.release(num(p.nodePort));
  if (num(spec.healthCheckNodePort) !== 0) ctx.nodePorts.release(num(spec.healthCheckNodePort));
}
