// cel.ValidFieldPath (pkg/apiserver/schema/cel/validation.go): resolves a JSON path like
// `.spec.foo['bar.baz']` against a structural schema, for selectableFields and the fieldPath of
// x-kubernetes-validations rules.
import type { Structural } from './structural.ts';

interface Elem {
  name: string;
  /** Set for a map key (rendered `[key]`). */
  key: boolean;
}

export interface ResolvedFieldPath {
  elems: Elem[];
  schema: Structural | undefined;
}

/** field.Path.String() of the resolved path. */
export function pathString(elems: readonly Elem[]): string {
  let out = '';
  elems.forEach((e, i) => {
    if (e.key) out += `[${e.name}]`;
    else out += (i > 0 ? '.' : '') + e.name;
  });
  return out;
}

// bufio.Scanner with the split func of ValidFieldPath: delimiters '.', '[' and ']' are tokens of
// their own, a single-quoted string is one token (up to an unescaped closing quote).
function tokenize(s: string): string[] {
  const out: string[] = [];
  let data = s;
  while (data.length > 0) {
    let n = data.length;
    for (let i = 0; i < data.length; i++) {
      if (data[0] === "'") {
        if (i > 0 && data[i] === "'" && data[i - 1] !== '\\') {
          n = i + 1;
          break;
        }
        continue;
      }
      const c = data[i];
      if (c === '.' || c === '[' || c === ']') {
        n = i === 0 ? 1 : i;
        break;
      }
    }
    out.push(data.slice(0, n));
    data = data.slice(n);
  }
  return out;
}

function unescapeSingleQuote(s: string): string {
  let err: string | undefined;
  const out = s.replace(/\\[\s\S]/gu, (m) => {
    const map: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };
    const r = map[m[1]!];
    if (r === undefined) {
      err = `invalid escape char ${m}`;
      return '';
    }
    return r;
  });
  if (err !== undefined) throw new FieldPathError(`invalid string literal: ${err}`);
  return out;
}

export class FieldPathError extends Error {}

/** ValidFieldPath: throws FieldPathError with Go's message when the path is invalid. */
export function validFieldPath(jsonPath: string, root: Structural | undefined, allowArrayNotation = true): ResolvedFieldPath {
  const elems: Elem[] = [];
  let schema = root;
  const fail = (msg: string): never => {
    throw new FieldPathError(msg);
  };
  const descend = (name: string): void => {
    // Go dereferences a nil schema here (a panic); report it as an invalid path instead.
    if (schema === undefined) fail('does not refer to a valid field');
    const named = schema!.properties !== undefined;
    if (!named && schema!.additionalProperties === undefined) fail('does not refer to a valid field');
    if (!named) {
      elems.push({ name, key: true });
      schema = schema!.additionalProperties!.structural;
    } else {
      elems.push({ name, key: false });
      const val = schema!.properties!.get(name);
      if (val === undefined) fail('does not refer to a valid field');
      schema = val;
    }
  };

  const toks = tokenize(jsonPath);
  let i = 0;
  while (i < toks.length) {
    const tok = toks[i++]!;
    if (tok === '[') {
      if (!allowArrayNotation) fail('array notation is not allowed');
      if (i >= toks.length) fail('unexpected end of JSON path');
      const quoted = toks[i++]!;
      if (quoted.length < 2 || quoted[0] !== "'" || quoted[quoted.length - 1] !== "'") fail(`expected single quoted string but got ${quoted}`);
      descend(unescapeSingleQuote(quoted.slice(1, -1)));
      if (i >= toks.length) fail('unexpected end of JSON path');
      const close = toks[i++]!;
      if (close !== ']') fail(`expected ] but got ${close}`);
    } else if (tok === '.') {
      if (i >= toks.length) fail('unexpected end of JSON path');
      descend(toks[i++]!);
    } else {
      fail(`expected [ or . but got: ${tok}`);
    }
  }
  return { elems, schema };
}
