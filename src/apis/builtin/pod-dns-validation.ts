// The name-resolution parts of ValidatePodSpec (pkg/apis/core/validation/validation.go, v1.36):
// validatePodDNSConfig (dnsPolicy None needs a dnsConfig with a nameserver; at most 3 nameservers,
// each a valid IP; at most 32 search domains in at most 2048 characters, each a subdomain that may
// hold '_' and end in '.' or be '.' alone with RelaxedDNSSearchValidation, GA; named options),
// validateReadinessGates and ValidateHostAliases.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { validateQualifiedName } from '../../validation/meta-fields.ts';
import { isValidIP } from '../../validation/ip.ts';
import { isDNS1123Subdomain, isDNS1123SubdomainWithUnderscore } from '../../validation/names.ts';
import { isPlainObject } from '../object.ts';
import { goString } from './shared.ts';

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((e) => (typeof e === 'string' ? e : '')) : []);

const MAX_DNS_NAMESERVERS = 3;
const MAX_DNS_SEARCH_PATHS = 32;
const MAX_DNS_SEARCH_LIST_CHARS = 2048;

/** validatePodDNSConfig; `path` is `spec.dnsConfig`. */
export function validatePodDNSConfig(dnsConfig: unknown, dnsPolicy: unknown, path: string): FieldError[] {
  const config = isPlainObject(dnsConfig) ? dnsConfig : undefined;
  const nameservers = strings(config?.nameservers);
  if (dnsPolicy === 'None') {
    if (!config) return [fieldError.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (nameservers.length === 0) return [fieldError.required(`${path}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!config) return [];
  const errs: FieldError[] = [];
  if (nameservers.length > MAX_DNS_NAMESERVERS) errs.push(fieldError.invalid(`${path}.nameservers`, nameservers, `must not have more than ${MAX_DNS_NAMESERVERS} nameservers`));
  nameservers.forEach((ns, i) => errs.push(...isValidIP(`${path}.nameservers[${i}]`, ns)));
  const searches = strings(config.searches);
  if (searches.length > MAX_DNS_SEARCH_PATHS) errs.push(fieldError.invalid(`${path}.searches`, searches, `must not have more than ${MAX_DNS_SEARCH_PATHS} search paths`));
  // The length counts the spaces between the domains, as resolv.conf writes them.
  if (Buffer.byteLength(searches.join(' ')) > MAX_DNS_SEARCH_LIST_CHARS) {
    errs.push(fieldError.invalid(`${path}.searches`, searches, `must not have more than ${MAX_DNS_SEARCH_LIST_CHARS} characters (including spaces) in the search list`));
  }
  searches.forEach((search, i) => {
    if (search === '.') return;
    const trimmed = search.endsWith('.') ? search.slice(0, -1) : search;
    errs.push(...isDNS1123SubdomainWithUnderscore(trimmed).map((m) => fieldError.invalid(`${path}.searches[${i}]`, trimmed, m)));
  });
  list(config.options).forEach((option, i) => {
    if (goString(option.name) === '') errs.push(fieldError.required(`${path}.options[${i}]`, 'must not be empty'));
  });
  return errs;
}

/** validateReadinessGates: each conditionType a qualified name. */
export function validateReadinessGates(gates: unknown, path: string): FieldError[] {
  return list(gates).flatMap((gate, i) => {
    const conditionType = goString(gate.conditionType);
    return validateQualifiedName(conditionType, `${path}[${i}].conditionType`);
  });
}

/** ValidateHostAliases: an IP and subdomain host names. */
export function validateHostAliases(aliases: unknown, path: string): FieldError[] {
  return list(aliases).flatMap((alias, i) => [
    ...isValidIP(`${path}[${i}].ip`, goString(alias.ip)),
    ...strings(alias.hostnames).flatMap((host, j) => isDNS1123Subdomain(host).map((m) => fieldError.invalid(`${path}[${i}].hostnames[${j}]`, host, m))),
  ]);
}
