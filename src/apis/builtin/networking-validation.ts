// ValidateIngressCreate/Update and ValidateNetworkPolicy (pkg/apis/networking/validation/
// validation.go, v1.36): Ingress rules (hosts as DNS or wildcard DNS names, not IPs; HTTP paths
// with their pathType; backends naming a service and one port, or a resource), defaultBackend or
// rules, TLS hosts and secret names, the class; NetworkPolicy selectors, ports (protocol, port
// numbers or names, endPort ranges), peers and ipBlocks (CIDRs as ParseCIDRSloppy reads them,
// StrictIPCIDRValidation being off), policyTypes. Texts and paths as in Go.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { parseCIDRSloppy, parseIPSloppy } from '../../go/net-sloppy.ts';
import { isDNS1035Label, isDNS1123Subdomain, isPathSegmentName, isWildcardDNS1123Subdomain } from '../../validation/names.ts';
import type { KubeObject } from '../object.ts';
import { isValidPortName, isValidPortNum } from '../../validation/ports.ts';
import { validateLabelSelector } from './label-selector-validation.ts';
import { asObject, goString } from './shared.ts';

type Json = Record<string, unknown>;
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

// ---- Ingress ----

export function validateIngressCreate(ingress: KubeObject): FieldError[] {
  const spec = asObject(ingress.spec) ?? {};
  const errs = validateIngressSpec(spec, { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false });
  const annotations = ingress.metadata?.annotations ?? {};
  if (INGRESS_CLASS_ANNOTATION in annotations && spec.ingressClassName !== undefined && spec.ingressClassName !== null) {
    errs.push(fieldError.invalid(`annotations.${INGRESS_CLASS_ANNOTATION}`, annotations[INGRESS_CLASS_ANNOTATION], 'can not be set when the class field is also set'));
  }
  return errs;
}

/** On update, invalid data the stored object already holds (old secret names, wildcard rules) is tolerated. */
export function validateIngressUpdate(ingress: KubeObject, old: KubeObject): FieldError[] {
  const oldSpec = asObject(old.spec) ?? {};
  const allowInvalidSecretName = list(oldSpec.tls).some((t) => tlsSecretNameErrors(goString(asObject(t)?.secretName)).length > 0);
  const allowInvalidWildcardHostRule = list(oldSpec.rules).some((r) => goString(asObject(r)?.host).includes('*') && validateIngressRuleValue(asObject(r) ?? {}, '').length > 0);
  return validateIngressSpec(asObject(ingress.spec) ?? {}, { allowInvalidSecretName, allowInvalidWildcardHostRule });
}

interface IngressOptions {
  allowInvalidSecretName: boolean;
  allowInvalidWildcardHostRule: boolean;
}

function validateIngressSpec(spec: Json, opts: IngressOptions): FieldError[] {
  const errs: FieldError[] = [];
  const rules = list(spec.rules);
  const defaultBackend = asObject(spec.defaultBackend);
  if (rules.length === 0 && !defaultBackend) errs.push(fieldError.invalid('spec', Array.isArray(spec.rules) ? spec.rules : null, 'either `defaultBackend` or `rules` must be specified'));
  if (defaultBackend) errs.push(...validateIngressBackend(defaultBackend, 'spec.defaultBackend'));
  rules.forEach((r, i) => {
    const rule = asObject(r) ?? {};
    const path = `spec.rules[${i}]`;
    const host = goString(rule.host);
    let wildcard = false;
    if (host !== '') {
      if (parseIPSloppy(host)) errs.push(fieldError.invalid(`${path}.host`, host, 'must be a DNS name, not an IP address'));
      if (host.includes('*')) {
        errs.push(...isWildcardDNS1123Subdomain(host).map((m) => fieldError.invalid(`${path}.host`, host, m)));
        wildcard = true;
      } else errs.push(...isDNS1123Subdomain(host).map((m) => fieldError.invalid(`${path}.host`, host, m)));
    }
    if (!wildcard || !opts.allowInvalidWildcardHostRule) errs.push(...validateIngressRuleValue(rule, path));
  });
  list(spec.tls).forEach((t, i) => {
    const tls = asObject(t) ?? {};
    list(tls.hosts).forEach((h, j) => {
      const host = goString(h);
      const messages = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      errs.push(...messages.map((m) => fieldError.invalid(`spec.tls[${i}].hosts[${j}]`, host, m)));
    });
    if (!opts.allowInvalidSecretName) {
      const secretName = goString(tls.secretName);
      errs.push(...tlsSecretNameErrors(secretName).map((m) => fieldError.invalid(`spec.tls[${i}].secretName`, secretName, m)));
    }
  });
  if (typeof spec.ingressClassName === 'string') {
    errs.push(...isDNS1123Subdomain(spec.ingressClassName).map((m) => fieldError.invalid('spec.ingressClassName', spec.ingressClassName, m)));
  }
  return errs;
}

const tlsSecretNameErrors = (name: string): string[] => (name === '' ? [] : isDNS1123Subdomain(name));

function validateIngressRuleValue(rule: Json, path: string): FieldError[] {
  const http = asObject(rule.http);
  if (!http) return [];
  const errs: FieldError[] = [];
  const paths = list(http.paths);
  if (paths.length === 0) errs.push(fieldError.required(`${path}.http.paths`));
  paths.forEach((p, i) => errs.push(...validateHTTPIngressPath(asObject(p) ?? {}, `${path}.http.paths[${i}]`)));
  return errs;
}

function validateHTTPIngressPath(p: Json, path: string): FieldError[] {
  if (typeof p.pathType !== 'string') return [fieldError.required(`${path}.pathType`, 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = goString(p.path);
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(fieldError.invalid(`${path}.path`, value, 'must be an absolute path'));
      if (value.length > 0) {
        for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) errs.push(fieldError.invalid(`${path}.path`, value, `must not contain '${seq}'`));
        for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) errs.push(fieldError.invalid(`${path}.path`, value, `cannot end with '${suffix}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value.length > 0 && !value.startsWith('/')) errs.push(fieldError.invalid(`${path}.path`, value, 'must be an absolute path'));
      break;
    default:
      errs.push(fieldError.notSupported(`${path}.pathType`, p.pathType, PATH_TYPES));
  }
  errs.push(...validateIngressBackend(asObject(p.backend) ?? {}, `${path}.backend`));
  return errs;
}

function validateIngressBackend(backend: Json, path: string): FieldError[] {
  const resource = asObject(backend.resource);
  const service = asObject(backend.service);
  if (resource && service) return [fieldError.invalid(path, '', 'cannot set both resource and service backends')];
  if (resource) return validateTypedLocalObjectReference(resource, `${path}.resource`);
  if (!service) return [fieldError.invalid(path, '', 'resource or service backend is required')];
  const errs: FieldError[] = [];
  const name = goString(service.name);
  if (name === '') errs.push(fieldError.required(`${path}.service.name`));
  else errs.push(...isDNS1035Label(name).map((m) => fieldError.invalid(`${path}.service.name`, name, m)));
  const port = asObject(service.port) ?? {};
  const portName = goString(port.name);
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName !== '' && portNumber !== 0) errs.push(fieldError.invalid(path, '', 'cannot set both port name & port number'));
  else if (portName !== '') errs.push(...isValidPortName(portName).map((m) => fieldError.invalid(`${path}.service.port.name`, portName, m)));
  else if (portNumber !== 0) errs.push(...isValidPortNum(portNumber).map((m) => fieldError.invalid(`${path}.service.port.number`, portNumber, m)));
  else errs.push(fieldError.required(path, 'port name or number is required'));
  return errs;
}

function validateTypedLocalObjectReference(ref: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof ref.apiGroup === 'string') errs.push(...isDNS1123Subdomain(ref.apiGroup).map((m) => fieldError.invalid(`${path}.apiGroup`, ref.apiGroup, m)));
  for (const key of ['kind', 'name'] as const) {
    const value = goString(ref[key]);
    if (value === '') errs.push(fieldError.required(`${path}.${key}`, `${key} is required`));
    else errs.push(...isPathSegmentName(value).map((m) => fieldError.invalid(`${path}.${key}`, value, m)));
  }
  return errs;
}

// ---- NetworkPolicy ----

// validateNetworkPolicyPort lists them in this order, not sorted.
const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

export function validateNetworkPolicy(np: KubeObject): FieldError[] {
  const spec = asObject(np.spec) ?? {};
  const errs: FieldError[] = validateLabelSelector(spec.podSelector ?? {}, 'spec.podSelector');
  for (const [direction, peersKey] of [['ingress', 'from'], ['egress', 'to']] as const) {
    list(spec[direction]).forEach((r, i) => {
      const rule = asObject(r) ?? {};
      const path = `spec.${direction}[${i}]`;
      list(rule.ports).forEach((p, j) => errs.push(...validateNetworkPolicyPort(asObject(p) ?? {}, `${path}.ports[${j}]`)));
      list(rule[peersKey]).forEach((p, j) => errs.push(...validateNetworkPolicyPeer(asObject(p) ?? {}, `${path}.${peersKey}[${j}]`)));
    });
  }
  const policyTypes = list(spec.policyTypes);
  if (policyTypes.length > POLICY_TYPES.length) {
    errs.push(fieldError.invalid('spec.policyTypes', policyTypes, 'may not specify more than two policyTypes'));
    return errs;
  }
  policyTypes.forEach((t, i) => {
    if (!POLICY_TYPES.includes(goString(t))) errs.push(fieldError.notSupported(`spec.policyTypes[${i}]`, goString(t), POLICY_TYPES));
  });
  return errs;
}

function validateNetworkPolicyPort(port: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof port.protocol === 'string' && !PROTOCOLS.includes(port.protocol)) errs.push(fieldError.notSupported(`${path}.protocol`, port.protocol, PROTOCOLS));
  const endPort = typeof port.endPort === 'number' ? port.endPort : undefined;
  if (typeof port.port === 'number') {
    errs.push(...isValidPortNum(port.port).map((m) => fieldError.invalid(`${path}.port`, port.port, m)));
    if (endPort !== undefined) {
      // Go reports the port, not the endPort, as the value.
      if (endPort < port.port) errs.push(fieldError.invalid(`${path}.endPort`, port.port, 'must be greater than or equal to `port`'));
      errs.push(...isValidPortNum(endPort).map((m) => fieldError.invalid(`${path}.endPort`, endPort, m)));
    }
  } else if (typeof port.port === 'string') {
    if (endPort !== undefined) errs.push(fieldError.invalid(`${path}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
    errs.push(...isValidPortName(port.port).map((m) => fieldError.invalid(`${path}.port`, port.port, m)));
  } else if (endPort !== undefined) {
    errs.push(fieldError.invalid(`${path}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

function validateNetworkPolicyPeer(peer: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  for (const key of ['podSelector', 'namespaceSelector'] as const) {
    if (asObject(peer[key])) {
      peers++;
      errs.push(...validateLabelSelector(peer[key], `${path}.${key}`));
    }
  }
  const ipBlock = asObject(peer.ipBlock);
  if (ipBlock) {
    peers++;
    errs.push(...validateIPBlock(ipBlock, `${path}.ipBlock`));
  }
  if (peers === 0) errs.push(fieldError.required(path, 'must specify a peer'));
  else if (peers > 1 && ipBlock) errs.push(fieldError.forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

const CIDR_MSG = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

function validateIPBlock(ipBlock: Json, path: string): FieldError[] {
  const cidrText = goString(ipBlock.cidr);
  if (cidrText === '') return [fieldError.required(`${path}.cidr`)];
  const cidr = parseCIDRSloppy(cidrText);
  if (!cidr) return [fieldError.invalid(`${path}.cidr`, cidrText, CIDR_MSG)];
  const errs: FieldError[] = [];
  list(ipBlock.except).forEach((e, i) => {
    const exceptText = goString(e);
    const except = parseCIDRSloppy(exceptText);
    if (!except) errs.push(fieldError.invalid(`${path}.except[${i}]`, exceptText, CIDR_MSG));
    else if (!cidr.contains(except.addr) || cidr.bits >= except.bits) errs.push(fieldError.invalid(`${path}.except[${i}]`, exceptText, 'must be a strict subset of `cidr`'));
  });
  return errs;
}
