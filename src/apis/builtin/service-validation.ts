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
