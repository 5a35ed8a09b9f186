// go-yaml v3 (v3.0.4) Marshal of a yaml.Node read from JSON, with its styles cleared: the form
// gnostic stores in an OpenAPI v2 `Any` (compiler.Marshal clears the node styles, then marshals).
// Block style with the default 4-space indent: `key: value` lines, a nested mapping or sequence
// under its key at the next multiple of 4 (emitterc.go yaml_emitter_increase_indent_compact), a
// sequence item's content 2 past its `- `, `{}`/`[]` for empty ones. Numbers, bools and null keep
// the JSON text they were read from (a node's Value; JSON.stringify's number text is Go's
// encoding/json's, which wrote the document), so no float reformatting happens here.
//
// Strings (encode.go node, emitterc.go yaml_emitter_select_scalar_style and analyze_scalar):
// - text with a line break is a literal block (`|-`, `|`, `|+`, with an indentation indicator when
//   it starts with a space or break), double-quoted where a block cannot hold it;
// - text that would read back as another type (yaml-v3-resolve.ts) is double-quoted;
// - other text is plain where a plain scalar can hold it, else single-quoted, else double-quoted.
// Lines are never folded (v3's best width is unlimited). Not ported: keys longer than 128
// characters or with line breaks, which v3 writes as explicit `? ` keys.
import { yamlV3ResolvesAsNonString } from './yaml-v3-resolve.ts';

const BEST_INDENT = 4;

// yaml's is_break, is_printable (0x0A, 0x20-0x7E, 0xA0-0xD7FF, 0xE000-0xFFFD but not the BOM).
const isBreak = (cp: number) => cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
const isPrintable = (cp: number) =>
  cp === 0x0a || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);

interface ScalarAnalysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

/** yaml_emitter_analyze_scalar, for block context (flow_plain_allowed is never consulted). */
function analyze(value: string): ScalarAnalysis {
  if (value === '') return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  const chars = [...value];
  let blockIndicators = value.startsWith('---') || value.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let tabs = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  chars.forEach((ch, i) => {
    const cp = ch.codePointAt(0)!;
    const next = chars[i + 1];
    const followedByWhitespace = next === undefined || next === ' ' || next === '\t'; // is_blank: no breaks
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      else if ((ch === '?' || ch === ':' || ch === '-') && followedByWhitespace) blockIndicators = true;
    } else if ((ch === ':' && followedByWhitespace) || (ch === '#' && precededByWhitespace)) {
      blockIndicators = true;
    }
    if (ch === '\t') tabs = true;
    else if (!isPrintable(cp)) special = true; // v3 sets unicode: non-ASCII printable text is fine
    const last = i === chars.length - 1;
    if (ch === ' ') {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(cp)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = ch === ' ' || ch === '\t' || isBreak(cp) || cp === 0;
  });
  const blockPlainAllowed = !(leadingSpace || leadingBreak || trailingSpace || trailingBreak || breakSpace || spaceBreak || tabs || special || lineBreaks || blockIndicators);
  const singleQuotedAllowed = !(breakSpace || spaceBreak || tabs || special);
  const blockAllowed = !(trailingSpace || spaceBreak || special);
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

type Style = 'plain' | 'single' | 'double' | 'literal';

/** encode.go node's choice for a !!str scalar, then yaml_emitter_select_scalar_style's fallbacks. */
function selectStyle(value: string, simpleKey: boolean): Style {
  const a = analyze(value);
  let style: Style = value.includes('\n') ? 'literal' : yamlV3ResolvesAsNonString(value) ? 'double' : 'plain';
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain' && !a.blockPlainAllowed) style = 'single';
  // A single-quoted scalar spanning lines is written with folded breaks, not ported: double quotes read the same.
  if (style === 'single' && (!a.singleQuotedAllowed || a.multiline)) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
  return style;
}

const DOUBLE_ESCAPES: Record<number, string> = {
  0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', 0x1b: 'e',
  0x22: '"', 0x5c: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P',
};

/** yaml_emitter_write_double_quoted_scalar without folding: yaml's escapes, hex in upper case. */
function doubleQuoted(value: string): string {
  let out = '"';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (isPrintable(cp) && !isBreak(cp) && cp !== 0x22 && cp !== 0x5c) {
      out += ch;
      continue;
    }
    const named = DOUBLE_ESCAPES[cp];
    if (named !== undefined) out += '\\' + named;
    else if (cp <= 0xff) out += '\\x' + cp.toString(16).toUpperCase().padStart(2, '0');
    else if (cp <= 0xffff) out += '\\u' + cp.toString(16).toUpperCase().padStart(4, '0');
    else out += '\\U' + cp.toString(16).toUpperCase().padStart(8, '0');
  }
  return out + '"';
}

/** yaml_emitter_write_literal_scalar: `|` and its hints, then each line at `indent` (empty lines bare). */
function literal(value: string, indent: number): string {
  const chars = [...value];
  const first = chars[0]!.codePointAt(0)!;
  let header = '|';
  if (first === 0x20 || isBreak(first)) header += String(BEST_INDENT);
  const lastBreak = isBreak(chars[chars.length - 1]!.codePointAt(0)!);
  const beforeLastBreak = chars.length > 1 && isBreak(chars[chars.length - 2]!.codePointAt(0)!);
  if (!lastBreak) header += '-';
  else if (chars.length === 1 || beforeLastBreak) header += '+';
  let out = header + '\n';
  let atLineStart = true;
  for (const ch of chars) {
    if (isBreak(ch.codePointAt(0)!)) {
      out += ch; // write_break: `\n` as the emitter's line break (also `\n`), any other break copied
      atLineStart = true;
    } else {
      if (atLineStart) out += ' '.repeat(indent);
      out += ch;
      atLineStart = false;
    }
  }
  return out.endsWith('\n') ? out.slice(0, -1) : out;
}

/** A string scalar as v3 writes it; `indent` is where a literal block's lines go. */
function stringScalar(value: string, indent: number, simpleKey: boolean): string {
  switch (selectStyle(value, simpleKey)) {
    case 'plain':
      return value;
    case 'single':
      return `'${value.replaceAll("'", "''")}'`;
    case 'double':
      return doubleQuoted(value);
    case 'literal':
      return literal(value, indent);
  }
}

function scalar(v: unknown, indent: number, simpleKey = false): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return stringScalar(v, indent, simpleKey);
  return String(v);
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEmptyCollection = (v: unknown): boolean => (Array.isArray(v) ? v.length === 0 : isMap(v) && Object.keys(v).length === 0);
const isBlockCollection = (v: unknown): boolean => !isEmptyCollection(v) && (isMap(v) || Array.isArray(v));
const inline = (v: unknown, indent: number): string => (Array.isArray(v) ? '[]' : isMap(v) ? '{}' : scalar(v, indent));
/** increase_indent outside a sequence item: the next multiple of the indent. */
const aligned = (indent: number) => BEST_INDENT * Math.floor((indent + BEST_INDENT) / BEST_INDENT);
const pad = (n: number) => ' '.repeat(n);

/** The lines of a block collection whose entries start at column `indent`. */
function lines(v: unknown, indent: number): string[] {
  if (Array.isArray(v)) {
    return v.flatMap((item) => {
      // Inside a sequence item the indent just skips the `- `.
      if (isBlockCollection(item)) {
        const [first, ...rest] = lines(item, indent + 2);
        return [`${pad(indent)}- ${first!.trimStart()}`, ...rest];
      }
      return [`${pad(indent)}- ${inline(item, indent + 2)}`];
    });
  }
  return Object.entries(v as Record<string, unknown>).flatMap(([k, item]) => {
    const key = scalar(k, indent, true);
    if (isBlockCollection(item)) return [`${pad(indent)}${key}:`, ...lines(item, aligned(indent))];
    return [`${pad(indent)}${key}: ${inline(item, aligned(indent))}`];
  });
}

/** yaml.Marshal(node) of a JSON value, newline-terminated. */
export function marshalYamlV3(value: unknown): string {
  // A lone scalar is at indent -1, which increase_indent(flow) takes to the best indent.
  if (!isBlockCollection(value)) return inline(value, BEST_INDENT) + '\n';
  return lines(value, 0).join('\n') + '\n';
}
