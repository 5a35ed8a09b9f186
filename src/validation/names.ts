// Name and key format checkers, ported from kube-apiserver v1.36 (apimachinery v0.36):
// pkg/util/validation/validation.go, pkg/api/validate/content/{dns,kube,path,errors}.go and
// pkg/api/validation/generic.go. Each returns the Go []string of error details (empty when valid),
// so callers wrap them in field errors exactly where the Go code does.

/** How `metadata.name` is validated for a kind (apimachinery/pkg/api/validation names). */
export type NameRule = 'dns1123-subdomain' | 'dns1123-label' | 'dns1035-label' | 'path-segment';

/** apimachinery's ValidateNameFunc: `prefix` is true when validating a generateName. */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

/** Go's len(s): validation limits count UTF-8 bytes, not UTF-16 units. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * RegexError. The joiner emits `'a', ` per example and `or ` between them, hence the double
 * space in `'my-name',  or '123-abc'` that clients see.
 */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  let out = msg + ' (e.g. ';
  examples.forEach((ex, i) => {
    if (i > 0) out += ' or ';
    out += `'${ex}', `;
  });
  return out + `regex used for validation is '${re}')`;
}

// util/validation's MaxLenError says "characters" while content's says "bytes"; names and
// namespaces go through util/validation, label keys/values through content.
const maxLenCharsError = (n: number): string => `must be no more than ${n} characters`;
const maxLenBytesError = (n: number): string => `must be no more than ${n} bytes`;
const emptyError = (): string => 'must be non-empty';

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
export const DNS1035_LABEL_MAX_LENGTH = 63;
export const LABEL_VALUE_MAX_LENGTH = 63;

const dns1123LabelRe = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const dns1123SubdomainRe = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const dns1035LabelRe = new RegExp(`^${DNS1035_LABEL_FMT}$`);

/** validation.IsDNS1123Label (namespace names, many built-in names). */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenCharsError(DNS1123_LABEL_MAX_LENGTH));
  if (!dns1123LabelRe.test(value)) {
    // A valid subdomain that is not a label can only be failing on dots (length was checked above).
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  }
  return errs;
}

/** validation.IsDNS1123Subdomain (CR names and most built-in names). */
export function isDNS1123Subdomain(value: string): string[] {
  return dns1123Subdomain(value, maxLenCharsError);
}

/** content.IsDNS1123Subdomain: same check, but its length text says "bytes" (label-key prefixes). */
function contentIsDNS1123Subdomain(value: string): string[] {
  return dns1123Subdomain(value, maxLenBytesError);
}

function dns1123Subdomain(value: string, maxLen: (n: number) => string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLen(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

const WILDCARD_DNS1123_SUBDOMAIN_FMT = `\\*\\.${DNS1123_SUBDOMAIN_FMT}`;
const WILDCARD_DNS1123_SUBDOMAIN_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";
const wildcardDNS1123SubdomainRe = new RegExp(`^${WILDCARD_DNS1123_SUBDOMAIN_FMT}$`);

/** validation.IsWildcardDNS1123Subdomain (Ingress hosts such as `*.example.com`). */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenCharsError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!wildcardDNS1123SubdomainRe.test(value)) errs.push(regexError(WILDCARD_DNS1123_SUBDOMAIN_MSG, WILDCARD_DNS1123_SUBDOMAIN_FMT, '*.example.com'));
  return errs;
}

/** validation.IsDNS1035Label (Service names and the like). */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) errs.push(maxLenCharsError(DNS1035_LABEL_MAX_LENGTH));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_MAX_LENGTH = 63;
const labelKeyRe = new RegExp(`^${LABEL_KEY_FMT}$`);

/**
 * content.IsLabelKey, a.k.a. IsQualifiedName: label keys, annotation keys (lower-cased by the
 * caller) and finalizer names. An optional DNS-subdomain prefix and '/', then a name part.
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part ' + emptyError());
    else errs.push(...contentIsDNS1123Subdomain(prefix).map((m) => 'prefix part ' + m));
  } else {
    return [
      'a valid label key ' +
        regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc') +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part ' + emptyError());
  else if (byteLength(name) > LABEL_KEY_MAX_LENGTH) errs.push('name part ' + maxLenBytesError(LABEL_KEY_MAX_LENGTH));
  if (!labelKeyRe.test(name)) errs.push('name part ' + regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc'));
  return errs;
}

const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const labelValueRe = new RegExp(`^${LABEL_VALUE_FMT}$`);

/** content.IsLabelValue (IsValidLabelValue). */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenBytesError(LABEL_VALUE_MAX_LENGTH));
  if (!labelValueRe.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** content.IsPathSegmentName: stops at the first exact-name hit, as Go does. Empty is allowed. */
export function isPathSegmentName(name: string): string[] {
  if (name === '.') return ["may not be '.'"];
  if (name === '..') return ["may not be '..'"];
  return isPathSegmentPrefix(name);
}

/** content.IsPathSegmentPrefix: a prefix may be '.' since a suffix will follow. */
export function isPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  if (name.includes('/')) errs.push("may not contain '/'");
  if (name.includes('%')) errs.push("may not contain '%'");
  return errs;
}

/** path.ValidatePathSegmentName: the rule the generic registry applies to every kind. */
export const validatePathSegmentName: ValidateNameFunc = (name, prefix) =>
  prefix ? isPathSegmentPrefix(name) : isPathSegmentName(name);

/**
 * maskTrailingDash, bug for bug: Go slices off the last *two* bytes before appending 'a'
 * (`name[:len(name)-2] + "a"`), so "ab.-" is checked as "aba" and passes.
 */
export function maskTrailingDash(name: string): string {
  if (byteLength(name) <= 1 || !name.endsWith('-')) return name;
  const chars = [...name.slice(0, -1)];
  const cut = chars.pop()!;
  // Go cuts a multi-byte rune in half, leaving bytes no DNS regex accepts; stand in with as
  // many '_' (also rejected) so the length and regex verdicts match.
  return chars.join('') + '_'.repeat(byteLength(cut) - 1) + 'a';
}

export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** ValidateNamespaceName: namespace names (and metadata.namespace of namespaced objects). */
export const validateNamespaceName: ValidateNameFunc = nameIsDNSLabel;

/** The ValidateNameFunc a kind's metadata.name is checked with. */
export function nameValidatorFor(rule: NameRule): ValidateNameFunc {
  switch (rule) {
    case 'dns1123-subdomain':
      return nameIsDNSSubdomain;
    case 'dns1123-label':
      return nameIsDNSLabel;
    case 'dns1035-label':
      return nameIsDNS1035Label;
    case 'path-segment':
      return validatePathSegmentName;
  }
}

const DNS1123_LABEL_WITH_UNDERSCORE_FMT = '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_WITH_UNDERSCORE_FMT = `${DNS1123_LABEL_WITH_UNDERSCORE_FMT}(\\.${DNS1123_LABEL_WITH_UNDERSCORE_FMT})*`;
const dns1123SubdomainWithUnderscoreRe = new RegExp(`^${DNS1123_SUBDOMAIN_WITH_UNDERSCORE_FMT}$`);

/** validation.IsDNS1123SubdomainWithUnderscore (a pod's DNS search domains, RelaxedDNSSearchValidation). */
export function isDNS1123SubdomainWithUnderscore(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenCharsError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!dns1123SubdomainWithUnderscoreRe.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_WITH_UNDERSCORE_FMT,
        'example.com',
      ),
    );
  }
  return errs;
}
