// The Kubernetes format library (apiserver pkg/cel/library/format.go, on since 1.31):
// `format.named(name)` → optional<kubernetes.NamedFormat>, `format.<name>()` for each named format,
// and `<NamedFormat>.validate(s)` → optional.none() when valid, else optional.of(the error texts)
// — the same validators (and texts) the apiserver uses for object names, label values and CRD
// string formats.
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { formatChecker } from '../../schema/formats.ts';
import { isQualifiedName, isValidLabelValue, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from '../../validation/names.ts';
import { registerQualifiedFunction } from '../qualified-names.ts';
import { chargeCost } from '../runtime-cost.ts';
import { parseRequestURI, UrlError } from '../../go/net-url.ts';

export const FORMAT_TYPE = 'kubernetes.NamedFormat';

/** apiserver cel.MaxNameFormatRegexSize: the regex size the static estimate assumes for validate(). */
export const MAX_NAME_FORMAT_REGEX_SIZE = 128;
/** apiserver cel.MaxFormatSize: the longest format name (costs NamedFormat equality). */
export const MAX_FORMAT_SIZE = 64;

/** A CEL kubernetes.NamedFormat; equal when the names are. */
export class NamedFormat {
  readonly name: string;
  readonly validate: (s: string) => string[];
  /** The length of (an estimate of) the format's regex, for the runtime cost of validate(). */
  readonly maxRegexSize: number;
  constructor(name: string, validate: (s: string) => string[], maxRegexSize: number) {
    this.name = name;
    this.validate = validate;
    this.maxRegexSize = maxRegexSize;
  }
}

/** A strfmt (kube-openapi) format check with the library's one-line error. */
function strfmt(format: string, error: string): (s: string) => string[] {
  const check = formatChecker(format)!;
  return (s) => (check(s) ? [] : [error]);
}

// strfmt.UUIDPattern and strfmt.DateTimePattern: their lengths are the cost estimates.
const UUID_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$';
const DATE_TIME_PATTERN = '^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$';

/** library.ConstantFormats. */
export const CONSTANT_FORMATS: ReadonlyMap<string, NamedFormat> = new Map([
  ['dns1123Label', new NamedFormat('DNS1123Label', (s) => nameIsDNSLabel(s, false), 30)],
  ['dns1123Subdomain', new NamedFormat('DNS1123Subdomain', (s) => nameIsDNSSubdomain(s, false), 60)],
  ['dns1035Label', new NamedFormat('DNS1035Label', (s) => nameIsDNS1035Label(s, false), 30)],
  ['qualifiedName', new NamedFormat('QualifiedName', isQualifiedName, 60)],
  ['dns1123LabelPrefix', new NamedFormat('DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true), 30)],
  ['dns1123SubdomainPrefix', new NamedFormat('DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true), 60)],
  ['dns1035LabelPrefix', new NamedFormat('DNS1035LabelPrefix', (s) => nameIsDNS1035Label(s, true), 30)],
  ['labelValue', new NamedFormat('LabelValue', isValidLabelValue, 40)],
  // url.ParseRequestURI's own error; sized as govalidator's URL regex (1103 characters).
  ['uri', new NamedFormat('URI', validateURI, 1103)],
  ['uuid', new NamedFormat('uuid', strfmt('uuid', 'does not match the UUID format'), UUID_PATTERN.length)],
  // govalidator's base64 regex is about 84 characters.
  ['byte', new NamedFormat('byte', strfmt('byte', 'invalid base64'), 84)],
  ['date', new NamedFormat('date', strfmt('date', 'invalid date'), DATE_TIME_PATTERN.length)],
  ['datetime', new NamedFormat('datetime', strfmt('datetime', 'invalid datetime'), DATE_TIME_PATTERN.length)],
]);

function validateURI(s: string): string[] {
  try {
    parseRequestURI(s);
    return [];
  } catch (e) {
    if (e instanceof UrlError) return [e.message];
    throw e;
  }
}

/** The runtime cost cost.go charges validate(): a regex match of the format's size over the string. */
function validateCost(f: NamedFormat, s: string): number {
  const strCost = Math.ceil((1 + Array.from(s).length) * 0.1);
  const regexCost = Math.ceil(f.maxRegexSize * 0.25);
  return strCost * regexCost;
}

export function registerFormat(env: Environment): void {
  const F = FORMAT_TYPE;
  // Opaque: no fields to select (`undefined field` at compile time, as in cel-go).
  env.registerType(F, { ctor: NamedFormat, fields: {} });
  registerQualifiedFunction(env, 'format.named', ['string'], `optional<${F}>`, ((name: string) => {
    const f = CONSTANT_FORMATS.get(name);
    return f ? Optional.of(f) : Optional.none();
  }) as never);
  for (const [name, f] of CONSTANT_FORMATS) registerQualifiedFunction(env, `format.${name}`, [], F, (() => f) as never);
  env.registerFunction(`${F}.validate(string): optional<list<string>>`, (f: NamedFormat, s: string) => {
    // The engine counted 1 for the call; cel-go charges it this instead.
    chargeCost(validateCost(f, s) - 1);
    const errors = f.validate(s);
    return errors.length === 0 ? Optional.none() : Optional.of(errors);
  });
  env.registerOperator(`${F} == ${F}`, (a: NamedFormat, b: NamedFormat) => a.name === b.name);
}
