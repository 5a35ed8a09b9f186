// OpenAPI v3 value validation as kube-openapi's SchemaValidator runs it for custom resources
// (pkg/validation/validate: schema.go, type.go, schema_props.go, validator.go, object_validator.go,
// slice_validator.go, values.go), with CRD ratcheting (apiextensions validation/ratcheting.go).
// Validators run in kube-openapi's order and the match counts are kept, because anyOf/oneOf report
// the errors of the alternative that matched best.
import type { FieldError } from '../errors/field-error.ts';
import { goQuote } from '../errors/go-format.ts';
import { deepEqual } from '../util/deep-equal.ts';
import type { CompiledSchema, SchemaNode } from './schema-node.ts';
import { Correlation } from './correlation.ts';
import { goFormatG, isInt64 } from '../go/format-float.ts';
import { isFloat64AJSONInteger } from './go-number.ts';
import { Result, toFieldErrors, type OpenAPIError } from './openapi-result.ts';

type Kind = 'null' | 'boolean' | 'string' | 'int' | 'float' | 'array' | 'object';

function kindOf(d: unknown): Kind {
  switch (typeof d) {
    case 'string': return 'string';
    case 'boolean': return 'boolean';
    case 'number': return isInt64(d) ? 'int' : 'float';
    default:
      if (d === null || d === undefined) return 'null';
      return Array.isArray(d) ? 'array' : 'object';
  }
}

export interface SchemaValidationOptions {
  /** The old object of an update: enables ratcheting (CRDValidationRatcheting is GA). */
  old?: unknown;
  /** Field path the schema is rooted at: '' for the object, `status` for the status subresource. */
  basePath?: string;
}

/**
 * Validates `value` against the schema and returns field errors exactly as the CR strategy gets
 * them (paths, `in body` texts, error types). With `old`, errors inside subtrees unchanged from the
 * old object are dropped (ratcheting), except under allOf/anyOf/oneOf/not and for the root
 * apiVersion/kind.
 */
export function validateValue(compiled: CompiledSchema, value: unknown, opts: SchemaValidationOptions = {}): FieldError[] {
  const root = compiled.root;
  const result = 'old' in opts ? ratchet(new Correlation(value, opts.old, root), root, '') : validateNode(root, value, '', undefined);
  return result.valid ? [] : toFieldErrors(result, opts.basePath ?? '');
}

/** The raw kube-openapi result (for callers that need the match count or plain texts). */
export function validateToResult(compiled: CompiledSchema, value: unknown, old?: { value: unknown }): Result {
  const root = compiled.root;
  return old ? ratchet(new Correlation(value, old.value, root), root, '') : validateNode(root, value, '', undefined);
}

// ratchetingValueValidator.Validate: a failing subtree equal to its old counterpart passes (its
// errors become warnings, which the CR strategy never reports).
function ratchet(c: Correlation, s: SchemaNode, path: string): Result {
  const res = validateNode(s, c.value, path, c);
  if (res.valid || !c.deepEqual()) return res;
  const downgraded = new Result();
  downgraded.matchCount = res.matchCount;
  return downgraded;
}

function forField(field: string, s: SchemaNode, value: unknown, path: string, parentPath: string, corr: Correlation | undefined): Result {
  if (corr && !(parentPath === '' && (field === 'kind' || field === 'apiVersion'))) {
    const child = corr.key(field);
    if (child) return ratchet(child, s, path);
  }
  return validateNode(s, value, path, undefined);
}

function forIndex(i: number, s: SchemaNode, value: unknown, path: string, corr: Correlation | undefined): Result {
  const child = corr?.index(i);
  return child ? ratchet(child, s, path) : validateNode(s, value, path, undefined);
}

function validateNode(s: SchemaNode, d: unknown, path: string, corr: Correlation | undefined): Result {
  const res = new Result();
  const kind = kindOf(d);
  if (kind === 'null') {
    // Only the type and common (enum) validators see a null, without counting.
    validateType(s, d, kind, path, res);
    validateEnum(s, d, kind, path, res);
    return res;
  }
  if (s.types.length > 0 || s.format !== '') {
    validateType(s, d, kind, path, res);
    res.matchCount++;
  }
  validateSchemaProps(s, d, path, res);
  res.matchCount++;
  if (kind === 'string') {
    validateString(s, d as string, path, res);
    res.matchCount++;
    if (s.formatCheck) {
      if (!s.formatCheck(d as string)) res.add(invalidType(path, s.format, d as string));
      res.matchCount++;
    }
  }
  if (kind === 'int' || kind === 'float') {
    validateNumber(s, d as number, kind === 'int', path, res);
    res.matchCount++;
  }
  if (kind === 'array') {
    validateSlice(s, d as unknown[], path, corr, res);
    res.matchCount++;
  }
  validateEnum(s, d, kind, path, res);
  res.matchCount++;
  if (kind === 'object') {
    validateObject(s, d as Record<string, unknown>, path, corr, res);
    res.matchCount++;
  }
  res.matchCount++;
  return res;
}

function invalidType(path: string, typeName: string, value: string): OpenAPIError {
  return { code: 'InvalidType', name: path, value, message: `${path} in body must be of type ${typeName}: ${goQuote(value)}` };
}

const SCHEMA_TYPE: Record<Kind, [string, string]> = {
  null: ['null', ''],
  boolean: ['boolean', ''],
  string: ['string', ''],
  int: ['integer', 'int64'],
  float: ['number', 'float64'],
  array: ['array', ''],
  object: ['object', ''],
};

// typeValidator: counts one match when it passes, none when it fails.
function validateType(s: SchemaNode, d: unknown, kind: Kind, path: string, res: Result): void {
  const types = s.types;
  if (kind === 'null') {
    if (types.length > 0 && !types.includes('null') && !s.nullable) res.add(invalidType(path, types.join(','), 'null'));
    else res.matchCount++;
    return;
  }
  const [schType, format] = SCHEMA_TYPE[kind];
  // The common case, a single matching type without a format, decided without the general rules.
  if (s.format === '' && types.length === 1 && types[0] === schType) {
    res.matchCount++;
    return;
  }
  const isFloatInt = schType === 'number' && isFloat64AJSONInteger(d as number) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  const stringish = kind === 'string' || kind === 'array';
  if (!stringish && s.format !== '' && !(types.includes(schType) || format === s.format || isFloatInt || isIntFloat)) {
    res.add(invalidType(path, s.format, format));
    return;
  }
  if (!(types.includes('number') || types.includes('integer')) && s.format !== '' && stringish) {
    res.matchCount++;
    return;
  }
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) {
    res.add(invalidType(path, types.join(','), schType));
    return;
  }
  res.matchCount++;
}

// stringValidator: reports the first failing check only.
function validateString(s: SchemaNode, d: string, path: string, res: Result): void {
  if (s.maxLength !== undefined || s.minLength !== undefined) {
    let runes = 0;
    for (const _ of d) runes++;
    if (s.maxLength !== undefined && runes > s.maxLength) {
      res.add({ code: 'TooLong', name: path, value: d, valid: s.maxLength, message: `${path} in body should be at most ${s.maxLength} chars long` });
      return;
    }
    if (s.minLength !== undefined && runes < s.minLength) {
      res.add({ code: 'TooShort', name: path, value: d, valid: s.minLength, message: `${path} in body should be at least ${s.minLength} chars long` });
      return;
    }
  }
  if (s.regex !== undefined) {
    if (typeof s.regex === 'string') {
      res.add({ code: 'Pattern', name: path, value: d, message: `${path} in body should match '${s.pattern}, but pattern is invalid: ${s.regex}'` });
    } else if (!s.regex.test(d)) {
      res.add({ code: 'Pattern', name: path, value: d, message: `${path} in body should match '${s.pattern}'` });
    }
  }
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const FLOAT32_MAX = 3.4028234663852886e38;

// IsValueValidAgainstRange: can the value (as strconv text) be parsed as the schema's type/format?
function rangeError(v: number, typeName: string, format: string, prefix: string, path: string): OpenAPIError | undefined {
  let ok = true;
  if (typeName === 'integer') {
    ok = format === 'int32' ? Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX : isInt64(v);
  } else if (format === 'float') {
    ok = Math.abs(v) <= FLOAT32_MAX;
  }
  if (ok) return undefined;
  const message = format !== ''
    ? `${prefix} value must be of type ${typeName} with format ${format} in ${path}`
    : `${prefix} value must be of type ${typeName} (default format) in ${path}`;
  return { name: path, message };
}

function validateNumber(s: SchemaNode, d: number, isInt: boolean, path: string, res: Result): void {
  const checked = rangeError(d, s.numType, s.numFormat, 'Checked', path);
  if (checked) res.add(checked);
  if (s.multipleOf !== undefined) {
    const bad = rangeError(s.multipleOf, s.numType, s.numFormat, 'MultipleOf', path);
    if (bad) res.add(bad);
    const e = !bad && isInt ? multipleOfInt(path, d, Math.trunc(s.multipleOf)) : multipleOfFloat(path, d, s.multipleOf);
    if (e) res.add(e);
  }
  if (s.minimum !== undefined) {
    const bad = rangeError(s.minimum, s.numType, s.numFormat, 'Minimum boundary', path);
    if (bad) res.add(bad);
    const min = !bad && isInt ? Math.trunc(s.minimum) : s.minimum;
    const fails = s.exclusiveMinimum ? d <= min : d < min;
    if (fails) {
      const bound = !bad && isInt ? String(min) : goFormatG(min);
      const rel = s.exclusiveMinimum ? 'greater than' : 'greater than or equal to';
      res.add({ code: 'Min', name: path, value: d, message: `${path} in body should be ${rel} ${bound}` });
    }
  }
  if (s.maximum !== undefined) {
    const bad = rangeError(s.maximum, s.numType, s.numFormat, 'Maximum boundary', path);
    if (bad) res.add(bad);
    const max = !bad && isInt ? Math.trunc(s.maximum) : s.maximum;
    const fails = s.exclusiveMaximum ? d >= max : d > max;
    if (fails) {
      const bound = !bad && isInt ? String(max) : goFormatG(max);
      const rel = s.exclusiveMaximum ? 'less than' : 'less than or equal to';
      res.add({ code: 'Max', name: path, value: d, message: `${path} in body should be ${rel} ${bound}` });
    }
  }
}

function multipleOfInt(path: string, d: number, factor: number): OpenAPIError | undefined {
  if (factor <= 0) return { code: 'MultipleOfMustBePositive', name: path, value: factor, message: `factor MultipleOf declared for ${path} must be positive: ${factor}` };
  if (d % factor === 0) return undefined;
  return { code: 'MultipleOf', name: path, value: d, message: `${path} in body should be a multiple of ${factor}` };
}

function multipleOfFloat(path: string, d: number, factor: number): OpenAPIError | undefined {
  if (factor <= 0) return { code: 'MultipleOfMustBePositive', name: path, value: factor, message: `factor MultipleOf declared for ${path} must be positive: ${goFormatG(factor)}` };
  const mult = factor < 1 ? (1 / factor) * d : d / factor;
  if (isFloat64AJSONInteger(mult)) return undefined;
  return { code: 'MultipleOf', name: path, value: d, message: `${path} in body should be a multiple of ${goFormatG(factor)}` };
}

function validateSlice(s: SchemaNode, arr: unknown[], path: string, corr: Correlation | undefined, res: Result): void {
  if (s.items) {
    for (let i = 0; i < arr.length; i++) res.merge(forIndex(i, s.items, arr[i], `${path}[${i}]`, corr));
  }
  const size = arr.length;
  if (s.minItems !== undefined && size < s.minItems) {
    res.add({ code: 'MinItems', name: path, value: size, valid: s.minItems, message: `${path} in body should have at least ${s.minItems} items` });
  }
  if (s.maxItems !== undefined && size > s.maxItems) {
    res.add({ code: 'MaxItems', name: path, value: size, valid: s.maxItems, message: `${path} in body should have at most ${s.maxItems} items` });
  }
  if (s.uniqueItems && hasDuplicates(arr)) {
    res.add({ code: 'Unique', name: path, message: `${path} in body shouldn't contain duplicates` });
  }
}

function hasDuplicates(arr: readonly unknown[]): boolean {
  for (let i = 0; i < arr.length; i++) for (let j = 0; j < i; j++) if (deepEqual(arr[i], arr[j])) return true;
  return false;
}

// basicCommonValidator: reflect ConvertibleTo + DeepEqual against each enum value, so an int64
// matches a float64 entry, a float64 is truncated to match an int64 entry, and an int64 converts
// to a string as a rune.
function enumMatches(d: unknown, kind: Kind, ev: unknown): boolean {
  if (ev === null || ev === undefined || kind === 'null') return false;
  switch (typeof ev) {
    case 'string':
      if (kind === 'string') return d === ev;
      if (kind === 'int') return runeString(d as number) === ev;
      return false;
    case 'boolean':
      return kind === 'boolean' && d === ev;
    case 'number':
      if (kind === 'int') return d === ev;
      if (kind === 'float') return isInt64(ev) ? Math.trunc(d as number) === ev : d === ev;
      return false;
    default:
      if (Array.isArray(ev)) return kind === 'array' && deepEqual(d, ev);
      return kind === 'object' && deepEqual(d, ev);
  }
}

function runeString(n: number): string {
  return n >= 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : '\ufffd';
}

function validateEnum(s: SchemaNode, d: unknown, kind: Kind, path: string, res: Result): void {
  const values = s.enum;
  if (!values) return;
  for (const ev of values) if (enumMatches(d, kind, ev)) return;
  // The message only serves de-duplication; the field error is built from `values`.
  res.add({ code: 'Enum', name: path, value: d, values, message: `${path} in body should be one of ${JSON.stringify(values)}` });
}

function validateObject(s: SchemaNode, obj: Record<string, unknown>, path: string, corr: Correlation | undefined, res: Result): void {
  const keys = Object.keys(obj);
  const n = keys.length;
  if (s.minProperties !== undefined && n < s.minProperties) {
    res.add({ code: 'TooFewProperties', name: path, value: n, valid: s.minProperties, message: `${path} in body should have at least ${s.minProperties} properties` });
  }
  if (s.maxProperties !== undefined && n > s.maxProperties) {
    res.add({ code: 'TooManyProperties', name: path, value: n, valid: s.maxProperties, message: `${path} in body should have at most ${s.maxProperties} properties` });
  }
  const props = s.properties;
  const ap = s.additionalProperties;
  if (ap === false) {
    for (const k of keys) {
      if (!props?.has(k)) res.add({ code: 'UnallowedProperty', name: path, value: k, message: `${path}.${k} in body is a forbidden property` });
    }
  } else if (typeof ap === 'object') {
    for (const k of keys) {
      if (!props?.has(k)) res.merge(forField(k, ap, obj[k], `${path}.${k}`, path, corr));
    }
  }
  if (props) {
    // Go walks the properties map in random order; walking the object's keys visits the same set.
    for (const name of keys) {
      const ps = props.get(name);
      if (ps) res.merge(forField(name, ps, obj[name], path === '' ? name : `${path}.${name}`, path, corr));
    }
  }
  for (const k of s.required) {
    if (!Object.hasOwn(obj, k)) res.add({ code: 'Required', name: `${path}.${k}`, message: `${path}.${k} in body is required` });
  }
}

// schemaPropsValidator: anyOf, oneOf, allOf, not. Their sub-validators get no ratcheting options.
function validateSchemaProps(s: SchemaNode, d: unknown, path: string, res: Result): void {
  if (s.anyOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let succeeded = false;
    for (const sub of s.anyOf) {
      const r = validateNode(sub, d, path, undefined);
      if (r.valid) {
        best = undefined;
        succeeded = true;
        firstSuccess ??= r;
        break;
      }
      if (!best || r.matchCount > best.matchCount) best = r;
    }
    if (!succeeded) res.add({ name: path, message: `${goQuote(path)} must validate at least one schema (anyOf)` });
    res.merge(best ?? firstSuccess);
  }
  if (s.oneOf.length > 0) {
    let best: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sub of s.oneOf) {
      const r = validateNode(sub, d, path, undefined);
      if (r.valid) {
        validated++;
        best = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (!best || r.matchCount > best.matchCount)) best = r;
    }
    if (validated !== 1) {
      const extra = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      res.add({ name: path, message: `${goQuote(path)} must validate one and only one schema (oneOf). ${extra}` });
      res.merge(best);
    } else {
      res.merge(firstSuccess);
    }
  }
  if (s.allOf.length > 0) {
    let validated = 0;
    for (const sub of s.allOf) {
      const r = validateNode(sub, d, path, undefined);
      if (r.valid) validated++;
      res.merge(r);
    }
    if (validated !== s.allOf.length) {
      res.add({ name: path, message: `${goQuote(path)} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}` });
    }
  }
  if (s.not && validateNode(s.not, d, path, undefined).valid) {
    res.add({ name: path, message: `${goQuote(path)} must not validate the schema (not)` });
  }
}

