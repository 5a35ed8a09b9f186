// ValidateService and ValidateServiceUpdate (pkg/apis/core/validation/validation.go, v1.36), rule
// by rule and in upstream's order, so a 422 lists its causes as kube-apiserver does: the topology
// annotations, ports (required unless headless or ExternalName; names, numbers, protocols, target
// ports, appProtocol), the type's own rules (no headless NodePort/LoadBalancer; ExternalName's
// name and no IP fields), the selector, session affinity, the clusterIP/clusterIPs/ipFamilies/
// ipFamilyPolicy consistency (ValidateServiceClusterIPsRelatedFields, which the allocator also runs
// first on its own, see service.ts), externalIPs, the type, nodePorts (only with NodePort/
// LoadBalancer, unique per protocol), unique ports, loadBalancerSourceRanges, LoadBalancer-only
// fields (allocateLoadBalancerNodePorts, loadBalancerClass and its format), the traffic policies,
// healthCheckNodePort and trafficDistribution. Allocation (clusterIP, nodePort) is service.ts's.
import { fieldError, fieldPath, OMIT_VALUE, type FieldError } from '../../errors/field-error.ts';
import { goJson } from '../../errors/go-format.ts';
import { type Addr } from '../../go/netip.ts';
import { parseCIDRSloppy, parseIPSloppy } from '../../go/net-sloppy.ts';
import { validateLabels, validateQualifiedName } from '../../validation/meta-fields.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { isValidPortName, isValidPortNum, SUPPORTED_PORT_PROTOCOLS } from '../../validation/ports.ts';
import { goString } from './shared.ts';

type Json = Record<string, unknown>;
// sets.List order (sorted) where upstream lists a set; trafficDistribution's is a slice.
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SESSION_AFFINITIES = ['ClientIP', 'None'];
const TRAFFIC_POLICIES = ['Cluster', 'Local'];
const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
// PreferSameTrafficDistribution is locked on since 1.35: all three values are accepted.
const TRAFFIC_DISTRIBUTIONS = ['PreferClose', 'PreferSameZone', 'PreferSameNode'];
/** core.MaxClientIPServiceAffinitySeconds */
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;
const TOPOLOGY_MODE = 'service.kubernetes.io/topology-mode';
const TOPOLOGY_HINTS = 'service.kubernetes.io/topology-aware-hints';
const SOURCE_RANGES_ANNOTATION = 'service.beta.kubernetes.io/load-balancer-source-ranges';
const IP_MSG = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

const portNum = (n: unknown): number => (typeof n === 'number' ? n : 0);
const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : []);
/** isHeadlessService: exactly one clusterIP, and it is None. */
const isHeadless = (ips: string[]) => ips.length === 1 && ips[0] === 'None';
const specOf = (service: KubeObject): Json => (isPlainObject(service.spec) ? (service.spec as Json) : {});
/** apiservice.ExternallyAccessible */
/** apiservice.ExternallyAccessible (also the defaulting of externalTrafficPolicy, service.ts). */
export const externallyAccessible = (spec: Json) =>
  spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && stringList(spec.externalIPs).length > 0);
/** apiservice.NeedsHealthCheck (also the allocation of healthCheckNodePort, service.ts). */
export const needsHealthCheck = (spec: Json) => spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
/** netutils.IsIPv6String: an address that is not IPv4 (an IPv4-mapped one counts as IPv4). */
const isIPv6 = (ip: Addr | undefined) => ip !== undefined && !ip.unmap().is4;

/**
 * An IP in a legacy field (clusterIPs, externalIPs) as IsValidIPForLegacyField checks it while
 * StrictIPCIDRValidation is off (its v1.36 default): anything ParseIPSloppy reads.
 */
function validateLegacyIP(path: string, value: string): FieldError[] {
  return parseIPSloppy(value) ? [] : [fieldError.invalid(path, value, IP_MSG)];
}

/** ValidateNonSpecialIP */
function validateNonSpecialIP(value: string, path: string): FieldError[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [fieldError.invalid(path, value, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  if (ip.isUnspecified()) errs.push(fieldError.invalid(path, value, `may not be unspecified (${value})`));
  if (ip.isLoopback()) errs.push(fieldError.invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (ip.isLinkLocalUnicast()) errs.push(fieldError.invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (ip.isLinkLocalMulticast()) errs.push(fieldError.invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** ValidateService (the metadata part is the registry's). */
export function validateServiceSpec(service: KubeObject): FieldError[] {
  const spec = specOf(service);
  const errs: FieldError[] = [];
  const annotations = (service.metadata?.annotations ?? {}) as Record<string, string>;
  const mode = annotations[TOPOLOGY_MODE];
  const hints = annotations[TOPOLOGY_HINTS];
  if (mode !== undefined && hints !== undefined && mode !== hints) {
    errs.push(fieldError.invalid(fieldPath.key('metadata.annotations', TOPOLOGY_MODE), mode, `must match annotations[${TOPOLOGY_HINTS}] when both are specified`));
  }
  const ports = Array.isArray(spec.ports) ? (spec.ports as unknown[]).filter(isPlainObject) : [];
  const ips = stringList(spec.clusterIPs);
  const headless = isHeadless(ips);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(fieldError.required('spec.ports'));
  if ((spec.type === 'LoadBalancer' || spec.type === 'NodePort') && headless) {
    errs.push(fieldError.invalid('spec.clusterIPs[0]', ips[0], `may not be set to 'None' for ${spec.type} services`));
  }
  if (spec.type === 'ExternalName') {
    if (ips.length > 0) errs.push(fieldError.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    if (stringList(spec.ipFamilies).length > 0) errs.push(fieldError.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (typeof spec.ipFamilyPolicy === 'string') errs.push(fieldError.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
    const cname = goString(spec.externalName).replace(/\.$/, '');
    if (cname === '') errs.push(fieldError.required('spec.externalName'));
    else errs.push(...isDNS1123Subdomain(cname).map((m) => fieldError.invalid('spec.externalName', cname, m)));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`)));
  if (isPlainObject(spec.selector)) errs.push(...validateLabels(spec.selector as Record<string, string>, 'spec.selector'));
  const affinity = goString(spec.sessionAffinity);
  if (affinity === '') errs.push(fieldError.required('spec.sessionAffinity'));
  else if (!SESSION_AFFINITIES.includes(affinity)) errs.push(fieldError.notSupported('spec.sessionAffinity', affinity, SESSION_AFFINITIES));
  if (affinity === 'ClientIP') errs.push(...validateClientIPAffinityConfig(spec.sessionAffinityConfig, 'spec.sessionAffinityConfig'));
  else if (affinity === 'None' && spec.sessionAffinityConfig != null) {
    errs.push(fieldError.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateServiceClusterIPsRelatedFields(spec));
  stringList(spec.externalIPs).forEach((ip, i) => {
    const path = `spec.externalIPs[${i}]`;
    const ipErrs = validateLegacyIP(path, ip);
    errs.push(...(ipErrs.length ? ipErrs : validateNonSpecialIP(ip, path)));
  });
  const type = goString(spec.type);
  if (type === '') errs.push(fieldError.required('spec.type'));
  else if (!SERVICE_TYPES.includes(type)) errs.push(fieldError.notSupported('spec.type', type, SERVICE_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (portNum(p.nodePort) !== 0) errs.push(fieldError.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  // Duplicate nodePorts and ports count per protocol.
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (portNum(p.nodePort) === 0) return;
    const key = `${goString(p.protocol)}/${portNum(p.nodePort)}`;
    if (nodePorts.has(key)) errs.push(fieldError.duplicate(`spec.ports[${i}].nodePort`, portNum(p.nodePort)));
    nodePorts.add(key);
  });
  const seenPorts = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${goString(p.protocol)}/${portNum(p.port)}`;
    // The value is a core.ServicePort holding only the pair; internal types carry no json tags, so
    // Go prints the struct's fields by their Go names in declaration order (pre-rendered: goJson
    // would sort them as a map's).
    if (seenPorts.has(key)) {
      const json = `{"Name":"","Protocol":${goJson(goString(p.protocol))},"AppProtocol":null,"Port":${portNum(p.port)},"TargetPort":0,"NodePort":0}`;
      errs.push({ type: 'FieldValueDuplicate', field: `spec.ports[${i}]`, value: OMIT_VALUE, detail: json });
    }
    seenPorts.add(key);
  });
  const sourceRanges = stringList(spec.loadBalancerSourceRanges);
  if (sourceRanges.length > 0) {
    // Upstream spells this path with a capital L.
    const path = 'spec.LoadBalancerSourceRanges';
    if (type !== 'LoadBalancer') errs.push(fieldError.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    sourceRanges.forEach((value, i) => errs.push(...validateLegacyCIDR(fieldPath.index(path, i), value.trim())));
  } else if (annotations[SOURCE_RANGES_ANNOTATION] !== undefined) {
    const path = fieldPath.key('metadata.annotations', SOURCE_RANGES_ANNOTATION);
    if (type !== 'LoadBalancer') errs.push(fieldError.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const value = annotations[SOURCE_RANGES_ANNOTATION]!.trim();
    if (value !== '') for (const cidr of value.split(',')) errs.push(...validateLegacyCIDR(path, cidr.trim()));
  }
  if (typeof spec.allocateLoadBalancerNodePorts === 'boolean' && type !== 'LoadBalancer') {
    errs.push(fieldError.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  // Upstream's path here lacks the `spec.` (field.NewPath("allocateLoadBalancerNodePorts")).
  if (type === 'LoadBalancer' && typeof spec.allocateLoadBalancerNodePorts !== 'boolean') errs.push(fieldError.required('allocateLoadBalancerNodePorts'));
  errs.push(...validateLoadBalancerClass(spec));
  errs.push(...validateExternalTrafficPolicy(spec));
  const itp = spec.internalTrafficPolicy;
  if (typeof itp !== 'string') {
    // Not forbidden on other types, for historical reasons.
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errs.push(fieldError.required('spec.internalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(itp)) {
    errs.push(fieldError.notSupported('spec.internalTrafficPolicy', itp, TRAFFIC_POLICIES));
  }
  if (typeof spec.trafficDistribution === 'string' && !TRAFFIC_DISTRIBUTIONS.includes(spec.trafficDistribution)) {
    errs.push(fieldError.notSupported('spec.trafficDistribution', spec.trafficDistribution, TRAFFIC_DISTRIBUTIONS));
  }
  return errs;
}

/** validateServicePort */
function validateServicePort(p: Json, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = goString(p.name);
  if (requireName && name === '') errs.push(fieldError.required(`${path}.name`));
  else if (name !== '') {
    errs.push(...isDNS1123Label(name).map((m) => fieldError.invalid(`${path}.name`, name, m)));
    if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
    else names.add(name);
  }
  errs.push(...isValidPortNum(portNum(p.port)).map((m) => fieldError.invalid(`${path}.port`, portNum(p.port), m)));
  const protocol = goString(p.protocol);
  if (protocol === '') errs.push(fieldError.required(`${path}.protocol`));
  else if (!SUPPORTED_PORT_PROTOCOLS.includes(protocol)) errs.push(fieldError.notSupported(`${path}.protocol`, protocol, SUPPORTED_PORT_PROTOCOLS));
  // ValidatePortNumOrName
  if (typeof p.targetPort === 'number') errs.push(...isValidPortNum(p.targetPort).map((m) => fieldError.invalid(`${path}.targetPort`, p.targetPort, m)));
  if (typeof p.targetPort === 'string') errs.push(...isValidPortName(p.targetPort).map((m) => fieldError.invalid(`${path}.targetPort`, p.targetPort, m)));
  if (typeof p.appProtocol === 'string') errs.push(...validateQualifiedName(p.appProtocol, `${path}.appProtocol`));
  return errs;
}

/** validateClientIPAffinityConfig and validateAffinityTimeout. */
function validateClientIPAffinityConfig(config: unknown, path: string): FieldError[] {
  const why = 'when session affinity type is ClientIP';
  if (!isPlainObject(config)) return [fieldError.required(path, why)];
  const clientIP = (config as Json).clientIP;
  if (!isPlainObject(clientIP)) return [fieldError.required(`${path}.clientIP`, why)];
  const timeout = (clientIP as Json).timeoutSeconds;
  if (typeof timeout !== 'number') return [fieldError.required(`${path}.clientIP.timeoutSeconds`, why)];
  if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS) {
    return [fieldError.invalid(`${path}.clientIP.timeoutSeconds`, timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`)];
  }
  return [];
}

/** A CIDR as IsValidCIDRForLegacyField checks it with StrictIPCIDRValidation off. */
function validateLegacyCIDR(path: string, value: string): FieldError[] {
  return parseCIDRSloppy(value) ? [] : [fieldError.invalid(path, value, CIDR_MSG)];
}

/** The create half of validateLoadBalancerClassField: a qualified name, and only on a LoadBalancer. */
function validateLoadBalancerClass(spec: Json): FieldError[] {
  if (typeof spec.loadBalancerClass !== 'string') return [];
  if (spec.type === 'LoadBalancer') return validateQualifiedName(spec.loadBalancerClass, 'spec.loadBalancerClass');
  return [fieldError.forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'")];
}

/** validateServiceExternalTrafficPolicy, healthCheckNodePort included. */
function validateExternalTrafficPolicy(spec: Json): FieldError[] {
  const errs: FieldError[] = [];
  const etp = goString(spec.externalTrafficPolicy);
  if (!externallyAccessible(spec)) {
    if (etp !== '') errs.push(fieldError.invalid('spec.externalTrafficPolicy', etp, 'may only be set for externally-accessible services'));
  } else if (etp === '') {
    errs.push(fieldError.required('spec.externalTrafficPolicy'));
  } else if (!TRAFFIC_POLICIES.includes(etp)) {
    errs.push(fieldError.notSupported('spec.externalTrafficPolicy', etp, TRAFFIC_POLICIES));
  }
  const hc = portNum(spec.healthCheckNodePort);
  if (!needsHealthCheck(spec)) {
    if (hc !== 0) errs.push(fieldError.invalid('spec.healthCheckNodePort', hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc === 0) {
    errs.push(fieldError.required('spec.healthCheckNodePort'));
  } else {
    errs.push(...isValidPortNum(hc).map((m) => fieldError.invalid('spec.healthCheckNodePort', hc, m)));
  }
  return errs;
}

/**
 * ValidateServiceClusterIPsRelatedFields: clusterIP and clusterIPs in step, ipFamilies and
 * ipFamilyPolicy from their sets, valid clusterIPs ('None' only alone, at most one per family, two
 * in all), each clusterIP of the family its ipFamilies entry names. The allocator runs it on its own
 * before anything is allocated (alloc.go initIPFamilyFields), and ValidateService runs it again.
 */
export function validateServiceClusterIPsRelatedFields(spec: Json): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const clusterIP = goString(spec.clusterIP);
  const ips = stringList(spec.clusterIPs);
  const ipsValue = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : null;
  if (clusterIP !== '') {
    if (ips.length === 0) errs.push(fieldError.required('spec.clusterIPs'));
    else if (ips[0] !== clusterIP) errs.push(fieldError.invalid('spec.clusterIPs', ipsValue, 'first value must match `clusterIP`'));
  } else if (ips.length !== 0) {
    errs.push(fieldError.invalid('spec.clusterIPs', ipsValue, 'must be empty when `clusterIP` is not specified'));
  }
  const families = stringList(spec.ipFamilies);
  const seen = new Set<string>();
  families.forEach((family, i) => {
    if (!IP_FAMILIES.includes(family)) errs.push(fieldError.notSupported(`spec.ipFamilies[${i}]`, family, IP_FAMILIES));
    if (seen.has(family)) errs.push(fieldError.duplicate(`spec.ipFamilies[${i}]`, family));
    seen.add(family);
  });
  if (typeof spec.ipFamilyPolicy === 'string' && !IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy)) {
    errs.push(fieldError.notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, IP_FAMILY_POLICIES));
  }
  let invalidIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        invalidIPs = true;
        errs.push(fieldError.invalid('spec.clusterIPs', ipsValue, "'None' must be the first and only value"));
      }
      return;
    }
    const ipErrs = validateLegacyIP(`spec.clusterIPs[${i}]`, ip);
    if (ipErrs.length) invalidIPs = true;
    errs.push(...ipErrs);
  });
  if (ips.length > 2) errs.push(fieldError.invalid('spec.clusterIPs', ipsValue, 'may only hold up to 2 values'));
  // Bad addresses would skew the family checks below.
  if (invalidIPs) return errs;
  const parsed = ips.map((ip) => parseIPSloppy(ip));
  if (ips.length > 1 && !(parsed.some((ip) => isIPv6(ip)) && parsed.some((ip) => !isIPv6(ip)))) {
    errs.push(fieldError.invalid('spec.clusterIPs', ipsValue, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(ips) && ips.length > 0 && families.length > 0) {
    ips.forEach((ip, i) => {
      if (i >= families.length) return;
      if (families[i] === 'IPv4' && isIPv6(parsed[i])) errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (families[i] === 'IPv6' && !isIPv6(parsed[i])) errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errs;
}

/**
 * The cross-version checks ValidateServiceUpdate adds before ValidateService (validation.go,
 * validateUpgradeDowngradeClusterIPs, validateUpgradeDowngradeIPFamilies, the update half of
 * validateLoadBalancerClassField and validateServiceExternalTrafficFieldsUpdate): a primary
 * clusterIP or ipFamily, a LoadBalancer's class and a health-check nodePort may not change once
 * set; a secondary may be released only with ipFamilyPolicy SingleStack. Runs on
 * the object after PrepareForUpdate (allocated values patched in, clusterIP/clusterIPs normalized),
 * as the real strategy's validation does.
 */
export function validateServiceUpdateTransitions(spec: Json, oldSpec: Json): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return errs;
  const ips = stringList(spec.clusterIPs);
  const oldIPs = stringList(oldSpec.clusterIPs);
  // A Go nil slice or pointer prints as null in the error's value.
  const ipsValue = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : null;
  const policyValue = typeof spec.ipFamilyPolicy === 'string' ? spec.ipFamilyPolicy : null;
  const singleStack = spec.ipFamilyPolicy === 'SingleStack';
  const headless = isHeadless(ips);
  const oldHeadless = isHeadless(oldIPs);
  if (!(headless && oldHeadless)) {
    if (oldIPs.length === ips.length) {
      oldIPs.forEach((ip, i) => {
        if (ip !== ips[i]) errs.push(fieldError.invalid(`spec.clusterIPs[${i}]`, ipsValue, 'may not change once set'));
      });
    } else if (oldIPs.length > ips.length) {
      if (ips.length === 0) errs.push(fieldError.invalid('spec.clusterIPs[0]', ipsValue, 'primary clusterIP can not be unset'));
      if (oldIPs.length > 0 && ips.length > 0 && ips[0] !== oldIPs[0]) errs.push(fieldError.invalid('spec.clusterIPs[0]', ipsValue, 'may not change once set'));
      if (ips.length === 1 && !singleStack) errs.push(fieldError.invalid('spec.ipFamilyPolicy', policyValue, "must be set to 'SingleStack' when releasing the secondary clusterIP"));
    } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
      errs.push(fieldError.invalid('spec.clusterIPs[0]', ipsValue, 'may not change once set'));
    }
  }
  // Families: not checked when the service turns headless or back, nor between headless ones.
  if (headless === oldHeadless && !headless) {
    const families = stringList(spec.ipFamilies);
    const oldFamilies = stringList(oldSpec.ipFamilies);
    const familiesValue = Array.isArray(spec.ipFamilies) ? spec.ipFamilies : null;
    if (oldFamilies.length === families.length) {
      // Every changed family is reported at index 0, as upstream does.
      oldFamilies.forEach((f, i) => {
        if (f !== families[i]) errs.push(fieldError.invalid('spec.ipFamilies[0]', familiesValue, 'may not change once set'));
      });
    } else if (oldFamilies.length > families.length) {
      if (ips.length === 0) errs.push(fieldError.invalid('spec.ipFamilies[0]', familiesValue, 'primary ipFamily can not be unset'));
      // Upstream prints the clusterIPs as the value here.
      if (families.length > 0 && families[0] !== oldFamilies[0]) errs.push(fieldError.invalid('spec.ipFamilies[0]', ipsValue, 'may not change once set'));
      if (families.length === 1 && !singleStack) errs.push(fieldError.invalid('spec.ipFamilyPolicy', policyValue, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    } else if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0]) {
      errs.push(fieldError.invalid('spec.ipFamilies[0]', ipsValue, 'may not change once set'));
    }
  }
  if (spec.type === 'LoadBalancer' && oldSpec.type === 'LoadBalancer') {
    const cls = typeof spec.loadBalancerClass === 'string' ? spec.loadBalancerClass : null;
    const oldCls = typeof oldSpec.loadBalancerClass === 'string' ? oldSpec.loadBalancerClass : null;
    if (cls !== oldCls) errs.push(fieldError.invalid('spec.loadBalancerClass', cls, 'may not change once set'));
  }
  // validateServiceExternalTrafficFieldsUpdate
  if (needsHealthCheck(spec) && needsHealthCheck(oldSpec) && portNum(spec.healthCheckNodePort) !== portNum(oldSpec.healthCheckNodePort)) {
    errs.push(fieldError.forbidden('spec.healthCheckNodePort', 'field is immutable'));
  }
  return errs;
}

