// Turns a CRD version's openAPIV3Schema into nodes the pruner, defaulter and validator walk without
// re-reading the raw schema: formats stripped the way the apiserver strips them, patterns compiled
// once (RE2, shared cache), int-or-string unfolded to the type list kube-openapi checks.
import type { RE2JS } from 're2js';
import { re2 } from './re2.ts';
import type { JSONSchemaProps } from './types.ts';
import { formatChecker, normalizeFormat, SUPPORTED_STRING_FORMATS } from './formats.ts';
import { servedDefault } from './prune-defaults.ts';
import type { CompiledSchema, PatternMatcher, SchemaNode } from './schema-node.ts';

const regexCache = new Map<string, RE2JS | string>();

/** Compiles a pattern once per process (kube-openapi caches the same way). */
export function compilePattern(pattern: string): RE2JS | string {
  let r = regexCache.get(pattern);
  if (r === undefined) {
    try {
      r = re2().compile(pattern);
    } catch (e) {
      r = e instanceof Error ? e.message : String(e);
    }
    regexCache.set(pattern, r);
  }
  return r;
}

const matcherCache = new Map<string, PatternMatcher | string>();

/**
 * The matcher for an OpenAPI `pattern`: RE2 decides validity (and its error text). A simple pattern
 * whose meaning is the same under JS `u`-mode RegExp and that cannot backtrack more than linearly
 * (anchored, one quantifier, no quantified group) runs natively, several times faster than re2js;
 * everything else keeps RE2's linear-time matching on re2js.
 */
export function compileSchemaPattern(pattern: string): PatternMatcher | string {
  let m = matcherCache.get(pattern);
  if (m === undefined) {
    const re2 = compilePattern(pattern);
    m = typeof re2 === 'string' ? re2 : (nativeEquivalent(pattern) ?? re2);
    matcherCache.set(pattern, m);
  }
  return m;
}

const SAFE_ESCAPES = new Set([...'.-/\\dDwWbB^$*+?(){}[]|ntrfv']);

// Conservative: only constructs both engines read alike (literals, classes, anchors, groups,
// alternation, quantifiers, ASCII \d \w \b escapes).
function nativeEquivalent(pattern: string): RegExp | undefined {
  if (!pattern.startsWith('^')) return undefined;
  let inClass = false;
  let quantifiers = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (!inClass && (c === '*' || c === '+' || c === '?' || c === '{')) {
      if (++quantifiers > 1 || pattern[i - 1] === ')') return undefined;
    }
    if (c === '\\') {
      if (!SAFE_ESCAPES.has(pattern[i + 1] ?? '')) return undefined;
      i++;
    } else if (inClass) {
      if (c === '[') return undefined;
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      // RE2 takes a leading ] (also after ^) as a literal; JS reads [] and [^] as classes.
      if (pattern[i + 1] === ']' || (pattern[i + 1] === '^' && pattern[i + 2] === ']')) return undefined;
    } else if (c === '.') {
      return undefined; // RE2's . excludes only \n; JS's also \r, U+2028, U+2029
    } else if (c === '(' && pattern[i + 1] === '?' && pattern[i + 2] !== ':') {
      return undefined;
    }
  }
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

function strippedFormat(types: readonly string[], format: string | undefined): string {
  if (!format) return '';
  const t = types.length === 1 ? types[0] : '';
  switch (t) {
    case '':
    case 'string':
      return SUPPORTED_STRING_FORMATS.has(normalizeFormat(format)) ? format : '';
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}

function compileNode(s: JSONSchemaProps): SchemaNode {
  // ConvertJSONSchemaProps: int-or-string overrides type with [integer, string].
  const types = s['x-kubernetes-int-or-string'] ? ['integer', 'string'] : s.type ? [s.type] : [];
  // The format post-processor sees the type list after int-or-string unfolding.
  const format = strippedFormat(types, s.format);
  const single = types.length === 1 ? types[0]! : '';
  let numType = '';
  let numFormat = '';
  if (single === 'integer') {
    numType = 'integer';
    if (format === 'int32' || format === 'int64') numFormat = format;
  } else if (single === 'number') {
    numType = 'number';
    if (format === 'float' || format === 'double') numFormat = format;
  }
  const props = s.properties ? new Map(Object.entries(s.properties).map(([k, v]) => [k, compileNode(v)] as const)) : undefined;
  const ap = s.additionalProperties;
  const items = s.items && !Array.isArray(s.items) ? compileNode(s.items) : undefined;
  const pattern = typeof s.pattern === 'string' ? s.pattern : '';
  const hasDefault = s.default !== undefined && s.default !== null;
  const additionalProperties = ap === undefined || ap === null ? undefined : typeof ap === 'boolean' ? ap : compileNode(ap);
  const defaultsBelow =
    hasDefault ||
    (props !== undefined && [...props.values()].some((p) => p.defaultsBelow)) ||
    (typeof additionalProperties === 'object' && additionalProperties.defaultsBelow) ||
    (items?.defaultsBelow ?? false);
  return {
    raw: s,
    types,
    nullable: s.nullable === true,
    format,
    formatCheck: format ? formatChecker(format) : undefined,
    numType,
    numFormat,
    maximum: num(s.maximum),
    exclusiveMaximum: s.exclusiveMaximum === true,
    minimum: num(s.minimum),
    exclusiveMinimum: s.exclusiveMinimum === true,
    multipleOf: num(s.multipleOf),
    maxLength: num(s.maxLength),
    minLength: num(s.minLength),
    pattern,
    regex: pattern ? compileSchemaPattern(pattern) : undefined,
    maxItems: num(s.maxItems),
    minItems: num(s.minItems),
    uniqueItems: s.uniqueItems === true,
    enum: Array.isArray(s.enum) && s.enum.length > 0 ? s.enum : undefined,
    maxProperties: num(s.maxProperties),
    minProperties: num(s.minProperties),
    required: Array.isArray(s.required) ? s.required : [],
    properties: props,
    additionalProperties,
    items,
    allOf: (s.allOf ?? []).map(compileNode),
    anyOf: (s.anyOf ?? []).map(compileNode),
    oneOf: (s.oneOf ?? []).map(compileNode),
    not: s.not ? compileNode(s.not) : undefined,
    // A JSON null default is no default (apiextensions JSON of `null` is nil).
    hasDefault,
    default: s.default,
    defaultsBelow,
    preserveUnknownFields: s['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: s['x-kubernetes-embedded-resource'] === true,
    listType: s['x-kubernetes-list-type'],
    listMapKeys: s['x-kubernetes-list-map-keys'] ?? [],
    mapType: s['x-kubernetes-map-type'],
  };
}

/** Precomputes everything the engine needs from one CRD version's openAPIV3Schema. */
export function compileSchema(schema: JSONSchemaProps): CompiledSchema {
  const root = compileNode(schema);
  pruneDefaults(root, true);
  return { root };
}

// The served schema's defaults are pruned once (customresource_handler.go PruneDefaults).
function pruneDefaults(node: SchemaNode, isRoot: boolean): void {
  if (node.hasDefault) (node as { default: unknown }).default = servedDefault(node, isRoot);
  if (node.properties) for (const p of node.properties.values()) pruneDefaults(p, false);
  if (typeof node.additionalProperties === 'object') pruneDefaults(node.additionalProperties, false);
  if (node.items) pruneDefaults(node.items, false);
}

/** The structural child for a map key: a property, else the additionalProperties schema. */
export function childForKey(s: SchemaNode | undefined, key: string): SchemaNode | undefined {
  if (!s) return undefined;
  const p = s.properties?.get(key);
  if (p) return p;
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}
