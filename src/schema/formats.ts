// String formats a CRD schema honours (apiextensions validation/formats.go) and their checkers
// (kube-openapi strfmt, govalidator). Unsupported formats are stripped at compile time.
import type { RE2JS } from 're2js';
import { re2 } from './re2.ts';
import { strfmtParseDuration } from '../go/duration.ts';

/** Normalised names (dashes removed, as go-openapi's registry does) of the honoured string formats. */
export const SUPPORTED_STRING_FORMATS: ReadonlySet<string> = new Set([
  'bsonobjectid', 'uri', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uuid', 'uuid3', 'uuid4', 'uuid5',
  'isbn', 'isbn10', 'isbn13', 'creditcard', 'ssn', 'hexcolor', 'rgbcolor', 'byte', 'password', 'date', 'duration',
  'datetime', 'k8sshortname', 'k8slongname',
]);

export const normalizeFormat = (f: string): string => f.replaceAll('-', '');

/**
 * An RE2 pattern compiled on its first test, not at import: compiling the hostname pattern's
 * Unicode classes took ~50 ms of every process that imports kubefake.
 */
const re = (p: string): { test(s: string): boolean } => {
  let compiled: RE2JS | undefined;
  return { test: (s) => (compiled ??= re2().compile(p)).test(s) };
};
const rxHostname = re(String.raw`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`);
const rxUUID = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$');
const rxUUID3 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$');
const rxUUID4 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$');
const rxUUID5 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$');
const rxShortName = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const rxLongName = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const rxDateTime = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
// govalidator patterns.
const rxSSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const rxHexcolor = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const rxRGBcolor = /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/;
const rxBase64 = /^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$/;
const rxCreditCard = /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const rxISBN10 = /^(?:[0-9]{9}X|[0-9]{10})$/;
const rxISBN13 = /^(?:[0-9]{13})$/;
const rxMAC = /^([0-9A-Fa-f]{2}[:-]){5}([0-9A-Fa-f]{2})$|^([0-9A-Fa-f]{2}[:-]){7}([0-9A-Fa-f]{2})$|^([0-9A-Fa-f]{2}[:-]){19}([0-9A-Fa-f]{2})$|^([0-9A-Fa-f]{4}\.){2}([0-9A-Fa-f]{4})$|^([0-9A-Fa-f]{4}\.){3}([0-9A-Fa-f]{4})$|^([0-9A-Fa-f]{4}\.){9}([0-9A-Fa-f]{4})$/;
const rxEmail = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+$/;

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[mo - 1]!;
}

function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = rxDateTime.exec(parts[1]!);
  return !!m && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

// Sloppy IPv4 (k8s.io/utils/net ParseIPSloppy allows leading zeros).
function isIPv4Text(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function isIPv6Text(s: string): boolean {
  if (!s.includes(':')) return false;
  let rest = s;
  let groups = 8;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    if (!isIPv4Text(s.slice(lastColon + 1))) return false;
    rest = s.slice(0, lastColon + 1) + '0:0';
  }
  const halves = rest.split('::');
  if (halves.length > 2) return false;
  const parse = (h: string): string[] | null => (h === '' ? [] : h.split(':'));
  const a = parse(halves[0]!), b = halves.length === 2 ? parse(halves[1]!) : [];
  if (!a || !b) return false;
  const all = [...a, ...b];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? all.length < groups : all.length === groups;
}

function isCIDR(s: string): boolean {
  const i = s.indexOf('/');
  if (i < 0) return false;
  const ip = s.slice(0, i), bits = s.slice(i + 1);
  if (!/^\d{1,3}$/.test(bits)) return false;
  if (isIPv4Text(ip)) return Number(bits) <= 32;
  return isIPv6Text(ip) && Number(bits) <= 128;
}

function isRequestURI(s: string): boolean {
  // url.ParseRequestURI: an absolute URI or an absolute path.
  if (s.startsWith('/')) return !/\s/.test(s);
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s)) return false;
  try { new URL(s); return !/[\s]/.test(s); } catch { return false; }
}

function luhn(digits: string): boolean {
  let sum = 0;
  let dbl = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (dbl) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

function isISBN10(s: string): boolean {
  const v = s.replace(/[\s-]/g, '');
  if (!rxISBN10.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (i + 1) * (v.charCodeAt(i) - 48);
  sum += v[9] === 'X' ? 100 : 10 * (v.charCodeAt(9) - 48);
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const v = s.replace(/[\s-]/g, '');
  if (!rxISBN13.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (v.charCodeAt(i) - 48);
  return (10 - (sum % 10)) % 10 === v.charCodeAt(12) - 48;
}

const CHECKERS: Record<string, (s: string) => boolean> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: (s) => rxEmail.test(s.trim().replace(/^.*<(.*)>$/, '$1')),
  hostname: (s) => rxHostname.test(s) && s.length <= 255 && s.split('.').every((p) => p.length <= 63),
  ipv4: (s) => s.includes('.') && (isIPv4Text(s) || (isIPv6Text(s) && /::ffff:/i.test(s))),
  ipv6: isIPv6Text,
  cidr: isCIDR,
  mac: (s) => rxMAC.test(s),
  uuid: (s) => rxUUID.test(s),
  uuid3: (s) => rxUUID3.test(s),
  uuid4: (s) => rxUUID4.test(s),
  uuid5: (s) => rxUUID5.test(s),
  isbn: (s) => isISBN10(s) || isISBN13(s),
  isbn10: isISBN10,
  isbn13: isISBN13,
  creditcard: (s) => {
    const v = s.replace(/[^0-9]/g, '');
    return rxCreditCard.test(v) && luhn(v);
  },
  ssn: (s) => s !== '' && rxSSN.test(s),
  hexcolor: (s) => rxHexcolor.test(s),
  rgbcolor: (s) => rxRGBcolor.test(s),
  byte: (s) => rxBase64.test(s),
  password: () => true,
  date: isDate,
  duration: (s) => strfmtParseDuration(s) !== undefined,
  datetime: isDateTime,
  k8sshortname: (s) => s.length <= 63 && rxShortName.test(s),
  k8slongname: (s) => s.length <= 253 && rxLongName.test(s),
};

/** The checker for a (supported) format name, or undefined when the registry does not know it. */
export function formatChecker(format: string): ((s: string) => boolean) | undefined {
  return CHECKERS[normalizeFormat(format)];
}
