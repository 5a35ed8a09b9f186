// YAML to a JSON value the way kube-apiserver reads it: sigs.k8s.io/yaml YAMLToJSON (v1.6.0) over
// go.yaml.in/yaml/v2 (v2.4.3). Values come from js-yaml's YAML 1.1 schema; what go-yaml does
// differently and what would let one small body run for minutes is ported here:
//   - Alias expansion is bounded as decode.go bounds it: every node the decoder visits counts,
//     those visited through an alias also count as aliased, and once more than 100 aliased and
//     1,000 visits are counted, an aliased share above allowedAliasRatio fails the whole document
//     with `document contains excessive aliasing`. The count runs on the parsed events, with an
//     explicit stack, before any value is built, so a 500-byte alias bomb stops after a few
//     thousand steps. An alias inside its own anchor fails with `anchor 'x' value contains itself`.
//   - Aliases are expanded into copies (Go decodes an alias into a fresh value; js-yaml shares one
//     object), so what the registry later changes in one place is not changed in another.
//   - `!!binary` is base64 (encoding/base64 StdEncoding; CR and LF ignored) decoded into a Go
//     string, which JSON then carries with invalid UTF-8 replaced per byte; bad base64 fails with
//     `!!binary value contains invalid base64 data`.
//   - A timestamp-looking plain scalar stays the text it was (decode.go keeps it a string for an
//     interface{} target), not a Date.
//   - A request body is its first document only (the parser's parse() returns one document node).
// Errors are go-yaml's, `yaml: ` included; callers add what their Go caller wraps around them.
import {
  binaryTag,
  constructFromEvents,
  defineScalarTag,
  EVENT_ID,
  getScalarValue,
  NOT_RESOLVED,
  parseEvents,
  SCALAR_STYLE,
  timestampTag,
  YAML11_SCHEMA,
  type Event,
  type ScalarEvent,
} from 'js-yaml';
import { MAX_OBJECT_DEPTH } from '../util/nesting-depth.ts';
import { setOwn } from '../util/own-property.ts';
import { decodeGoBase64 } from './base64.ts';
import { decodeGoUtf8 } from './utf8.ts';

export type GoYamlResult = { ok: true; value: unknown } | { ok: false; error: string };

/** A `!!binary` scalar whose base64 Go refuses; reported when the value is built. */
const INVALID_BINARY = Symbol('invalid !!binary');

class GoYamlError extends Error {}

// decode.go: 400,000 decodes is ~500kb of dense object declarations, or ~5kb of dense object
// declarations with 10000% alias expansion; 4,000,000 is ~5MB, or ~4.5MB with 10% expansion.
const ALIAS_RATIO_RANGE_LOW = 400_000;
const ALIAS_RATIO_RANGE_HIGH = 4_000_000;

/** decode.go allowedAliasRatio: 99% of decodes may come from aliases in small documents, 10% in very large ones. */
export function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - (0.89 * (decodeCount - ALIAS_RATIO_RANGE_LOW)) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW);
}

/** `!!binary`: the bytes as a Go string (or the marker of bad base64). */
const goBinaryTag = defineScalarTag<string | typeof INVALID_BINARY>(binaryTag.tagName, {
  resolve: (source) => {
    // base64.StdEncoding.DecodeString, which skips CR and LF itself.
    const decoded = decodeGoBase64(source);
    return decoded.ok ? decodeGoUtf8(decoded.bytes) : INVALID_BINARY;
  },
  identify: () => false,
});

/** Timestamps stay the text they were written as. */
const goTimestampTag = defineScalarTag<string>(timestampTag.tagName, {
  implicit: true,
  implicitFirstChars: timestampTag.implicitFirstChars,
  resolve: (source, isExplicit, tagName) => (timestampTag.resolve(source, isExplicit, tagName) === NOT_RESOLVED ? NOT_RESOLVED : source),
  identify: () => false,
});

const GO_SCHEMA = YAML11_SCHEMA.withTags(goBinaryTag, goTimestampTag);

export interface GoYamlOptions {
  /** Deepest nesting accepted (default MAX_OBJECT_DEPTH); deeper documents fail with `tooDeep`. */
  maxDepth?: number;
}

/**
 * sigs.k8s.io/yaml YAMLToJSON on `text`: the first document as a JSON value (undefined for an
 * empty one), or go-yaml's error text (`yaml: document contains excessive aliasing`). A document
 * nested deeper than `maxDepth` fails with `tooDeep: true` (kubefake's limit, see nesting-depth.ts).
 */
export function goYamlToJson(text: string, options: GoYamlOptions = {}): GoYamlResult & { tooDeep?: boolean } {
  const parsed = parseDocuments(text, options);
  if (!parsed.ok) return parsed;
  const [first] = parsed.documents;
  return first ? decodeDocument(text, first) : { ok: true, value: undefined };
}

/**
 * Every document of a multi-document stream, each decoded as goYamlToJson decodes one (as
 * kubectl's YAML reader splits a manifest, then unmarshals each document on its own).
 */
export function goYamlDocumentsToJson(text: string, options: GoYamlOptions = {}): { ok: true; values: unknown[] } | { ok: false; error: string; tooDeep?: boolean } {
  const parsed = parseDocuments(text, options);
  if (!parsed.ok) return parsed;
  const values: unknown[] = [];
  for (const doc of parsed.documents) {
    const decoded = decodeDocument(text, doc);
    if (!decoded.ok) return decoded;
    values.push(decoded.value);
  }
  return { ok: true, values };
}

function parseDocuments(text: string, options: GoYamlOptions): { ok: true; documents: Event[][] } | { ok: false; error: string; tooDeep?: boolean } {
  const maxDepth = options.maxDepth ?? MAX_OBJECT_DEPTH;
  try {
    return { ok: true, documents: splitDocuments(parseEvents(text, { maxDepth })) };
  } catch (err) {
    const reason = yamlReason(err);
    if (/exceeded maxDepth/.test(reason)) return { ok: false, error: `yaml: exceeded max depth of ${maxDepth}`, tooDeep: true };
    return { ok: false, error: `yaml: ${reason}` };
  }
}

function decodeDocument(text: string, events: Event[]): GoYamlResult {
  try {
    checkAliasing(text, events);
    const [doc] = constructFromEvents(events, { source: text, schema: GO_SCHEMA, json: true, maxTotalMergeKeys: -1 });
    return { ok: true, value: expand(doc) };
  } catch (err) {
    if (err instanceof GoYamlError) return { ok: false, error: `yaml: ${err.message}` };
    return { ok: false, error: `yaml: ${yamlReason(err)}` };
  }
}

const yamlReason = (err: unknown): string => (err as { reason?: string }).reason ?? (err as Error).message;

/** The events of each document. */
function splitDocuments(events: Event[]): Event[][] {
  const documents: Event[][] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < events.length; i++) {
    const type = events[i]!.type;
    if (type === EVENT_ID.POP) {
      if (--depth === 0) {
        documents.push(events.slice(start, i + 1));
        start = i + 1;
      }
    } else if (type === EVENT_ID.DOCUMENT || type === EVENT_ID.MAPPING || type === EVENT_ID.SEQUENCE) depth++;
  }
  return documents;
}

interface YamlNode {
  kind: 'document' | 'mapping' | 'sequence' | 'scalar' | 'alias';
  children: YamlNode[];
  /** A scalar's key-merge status (`<<` plain, or tagged !!merge). */
  merge?: boolean;
  /** An alias's anchor name and the node it names. */
  anchor?: string;
  target?: YamlNode;
}

const isMergeTag = (tag: string) => tag === '!!merge' || tag === '!<tag:yaml.org,2002:merge>';

/** decode.go's parser (node tree, anchors bound as they are met), then its decoder's alias count. */
function checkAliasing(text: string, events: Event[]): void {
  const anchors = new Map<string, YamlNode>();
  const root: YamlNode = { kind: 'document', children: [] };
  const open: YamlNode[] = [];
  let hasAlias = false;
  for (const ev of events) {
    if (ev.type === EVENT_ID.POP) {
      open.pop();
      continue;
    }
    let node: YamlNode;
    switch (ev.type) {
      case EVENT_ID.DOCUMENT:
        open.push(root);
        continue;
      case EVENT_ID.MAPPING:
      case EVENT_ID.SEQUENCE:
        node = { kind: ev.type === EVENT_ID.MAPPING ? 'mapping' : 'sequence', children: [] };
        break;
      case EVENT_ID.SCALAR:
        node = { kind: 'scalar', children: [], merge: isMergeKey(text, ev) };
        break;
      case EVENT_ID.ALIAS: {
        const name = text.slice(ev.anchorStart, ev.anchorEnd);
        const target = anchors.get(name);
        if (!target) throw new GoYamlError(`unknown anchor '${name}' referenced`);
        node = { kind: 'alias', children: [], anchor: name, target };
        hasAlias = true;
        break;
      }
    }
    open[open.length - 1]?.children.push(node);
    if ('anchorStart' in ev && ev.type !== EVENT_ID.ALIAS && ev.anchorStart >= 0) anchors.set(text.slice(ev.anchorStart, ev.anchorEnd), node);
    if (node.kind === 'mapping' || node.kind === 'sequence') open.push(node);
  }
  if (hasAlias) countDecodes(root);
}

function isMergeKey(text: string, ev: ScalarEvent): boolean {
  if (getScalarValue(text, ev) !== '<<') return false;
  if (ev.tagStart >= 0) return isMergeTag(text.slice(ev.tagStart, ev.tagEnd));
  return ev.style === SCALAR_STYLE.PLAIN;
}

type Step = { visit: YamlNode; merge?: boolean } | { leave: YamlNode };

/** decode.go unmarshal's counting over the tree, aliases expanded, with an explicit stack. */
function countDecodes(root: YamlNode): void {
  let decodeCount = 0;
  let aliasCount = 0;
  let aliasDepth = 0;
  const expanding = new Set<YamlNode>();
  const stack: Step[] = [{ visit: root }];
  const failWantMap = () => {
    throw new GoYamlError('map merge requires map or sequence of maps as the value');
  };
  while (stack.length > 0) {
    const step = stack.pop()!;
    if ('leave' in step) {
      aliasDepth--;
      expanding.delete(step.leave);
      continue;
    }
    const n = step.visit;
    if (step.merge) {
      // decoder.merge: a mapping or an alias of one is decoded into the map; a sequence of them
      // backwards (earlier ones take precedence); anything else fails.
      if (n.kind === 'mapping' || (n.kind === 'alias' && n.target!.kind === 'mapping')) stack.push({ visit: n });
      else if (n.kind === 'sequence') {
        for (const c of n.children) if (c.kind !== 'mapping' && !(c.kind === 'alias' && c.target!.kind === 'mapping')) failWantMap();
        for (const c of n.children) stack.push({ visit: c });
      } else failWantMap();
      continue;
    }
    decodeCount++;
    if (aliasDepth > 0) aliasCount++;
    if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount)) {
      throw new GoYamlError('document contains excessive aliasing');
    }
    switch (n.kind) {
      case 'alias':
        if (expanding.has(n)) throw new GoYamlError(`anchor '${n.anchor}' value contains itself`);
        expanding.add(n);
        aliasDepth++;
        stack.push({ leave: n }, { visit: n.target! });
        break;
      case 'mapping':
        for (let i = n.children.length - 2; i >= 0; i -= 2) {
          const key = n.children[i]!;
          const value = n.children[i + 1]!;
          if (key.kind === 'scalar' && key.merge) stack.push({ visit: value, merge: true });
          else stack.push({ visit: value }, { visit: key });
        }
        break;
      case 'document':
      case 'sequence':
        for (let i = n.children.length - 1; i >= 0; i--) stack.push({ visit: n.children[i]! });
        break;
      case 'scalar':
        break;
    }
  }
}

/**
 * The constructed document as a tree: shared (aliased) objects copied at each place they occur,
 * `!!binary` checked. Bounded: checkAliasing has already limited how far aliases expand.
 */
function expand(doc: unknown): unknown {
  const copy = (v: unknown): unknown => {
    if (v === INVALID_BINARY) throw new GoYamlError('!!binary value contains invalid base64 data');
    if (v === null || typeof v !== 'object') return v;
    return Array.isArray(v) ? new Array<unknown>(v.length) : {};
  };
  const top = copy(doc);
  if (top === null || typeof top !== 'object') return top;
  const stack: Array<[unknown, Record<string, unknown> | unknown[]]> = [[doc, top as Record<string, unknown>]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) {
        const c = copy(from[i]);
        (to as unknown[])[i] = c;
        if (c !== null && typeof c === 'object') stack.push([from[i], c as Record<string, unknown>]);
      }
      continue;
    }
    for (const key of Object.keys(from as object)) {
      const original = (from as Record<string, unknown>)[key];
      const c = copy(original);
      // setOwn: a `__proto__` key is data, as in Go's map.
      setOwn(to as Record<string, unknown>, key, c);
      if (c !== null && typeof c === 'object') stack.push([original, c as Record<string, unknown>]);
    }
  }
  return top;
}
