// ValidateService's spec part (pkg/apis/core/validation/validation.go, v1.36) that users run into:
// ports (required unless headless or ExternalName; names required when there are several, DNS
// labels, unique; port numbers; protocols; target ports as numbers or IANA names), the selector's
// labels, ExternalName's name, and the type. Allocation (clusterIP, nodePort) is service.ts's.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { validateLabels } from '../../validation/meta-fields.ts';
import { isDNS1123Label, isDNS1123Subdomain } from '../../validation/names.ts';
import { isPlainObject, type KubeObject } from '../object.ts';
import { isValidPortName, isValidPortNum, SUPPORTED_PORT_PROTOCOLS } from '../../validation/ports.ts';

type Json = Record<string, unknown>;
const SERVICE_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const portNum = (n: unknown): number => (typeof n === 'number' ? n : 0);

export function validateServiceSpec(service: KubeObject): FieldError[] {
  const spec = (isPlainObject(service.spec) ? service.spec : {}) as Json;
  const errs: FieldError[] = [];
  const ports = Array.isArray(spec.ports) ? (spec.ports as unknown[]).filter(isPlainObject) : [];
  const headless = spec.clusterIP === 'None';
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(fieldError.required('spec.ports'));
  if (spec.type === 'ExternalName') {
    if (Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0) errs.push(fieldError.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    const cname = typeof spec.externalName === 'string' ? spec.externalName.replace(/\.$/, '') : '';
    if (cname === '') errs.push(fieldError.required('spec.externalName'));
    else errs.push(...isDNS1123Subdomain(cname).map((m) => fieldError.invalid('spec.externalName', cname, m)));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const path = `spec.ports[${i}]`;
    const name = typeof p.name === 'string' ? p.name : '';
    if (ports.length > 1 && name === '') errs.push(fieldError.required(`${path}.name`));
    else if (name !== '') {
      errs.push(...isDNS1123Label(name).map((m) => fieldError.invalid(`${path}.name`, name, m)));
      if (names.has(name)) errs.push(fieldError.duplicate(`${path}.name`, name));
      else names.add(name);
    }
    errs.push(...isValidPortNum(portNum(p.port)).map((m) => fieldError.invalid(`${path}.port`, portNum(p.port), m)));
    const protocol = typeof p.protocol === 'string' ? p.protocol : '';
    if (protocol === '') errs.push(fieldError.required(`${path}.protocol`));
    else if (!SUPPORTED_PORT_PROTOCOLS.includes(protocol)) errs.push(fieldError.notSupported(`${path}.protocol`, protocol, SUPPORTED_PORT_PROTOCOLS));
    // ValidatePortNumOrName
    if (typeof p.targetPort === 'number') errs.push(...isValidPortNum(p.targetPort).map((m) => fieldError.invalid(`${path}.targetPort`, p.targetPort, m)));
    if (typeof p.targetPort === 'string') errs.push(...isValidPortName(p.targetPort).map((m) => fieldError.invalid(`${path}.targetPort`, p.targetPort, m)));
  });
  if (isPlainObject(spec.selector)) errs.push(...validateLabels(spec.selector as Record<string, string>, 'spec.selector'));
  const type = typeof spec.type === 'string' ? spec.type : '';
  if (type === '') errs.push(fieldError.required('spec.type'));
  else if (!SERVICE_TYPES.includes(type)) errs.push(fieldError.notSupported('spec.type', type, SERVICE_TYPES));
  return errs;
}

/**
 * The cross-version checks ValidateServiceUpdate adds before ValidateService (validation.go,
 * validateUpgradeDowngradeClusterIPs, validateUpgradeDowngradeIPFamilies and the update half of
 * validateLoadBalancerClassField): a primary clusterIP or ipFamily, and a LoadBalancer's class, may
 * not change once set; a secondary may be released only with ipFamilyPolicy SingleStack. Runs on
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
  return errs;
}

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : '')) : []);
/** isHeadlessService: exactly one clusterIP, and it is None. */
const isHeadless = (ips: string[]) => ips.length === 1 && ips[0] === 'None';
