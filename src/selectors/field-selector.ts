// Field selectors (`?fieldSelector=`): a port of fields.ParseSelector
// (apimachinery/pkg/fields/selector.go, v1.36) plus the named-request check of
// apiserver/pkg/endpoints/handlers/get.go (listOpts).
import { compareGoStrings } from './go-strings.ts';
import { SelectorParseError } from './selector-error.ts';

export { SelectorParseError } from './selector-error.ts';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

export interface FieldSelector {
  /** Terms in Go's order: the raw terms sorted as strings before parsing. */
  readonly requirements: readonly FieldRequirement[];
  readonly empty: boolean;
  /** `f=v,g!=w` with values re-escaped; `==` prints as `=`. */
  toString(): string;
  /** All terms hold. A field `get` does not know reads as "" (Go's fields.Set.Get). */
  matches(get: (field: string) => string | undefined): boolean;
  /**
   * fields.Selector.Transform: rewrites each term (a kind's field-label conversion); a term that
   * becomes empty field and empty value is dropped. Errors thrown by `fn` propagate untouched;
   * the apiserver sends their text as a 400 BadRequest.
   */
  transform(fn: (field: string, value: string) => { field: string; value: string }): FieldSelector;
}

/** Parses a field selector; throws SelectorParseError with Go's text. */
export function parseFieldSelector(text: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  for (const part of splitTerms(text).sort(compareGoStrings)) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw new SelectorParseError(`invalid selector: '${text}'; can't understand '${part}'`);
    requirements.push({ field: split.lhs, operator: split.op === '!=' ? '!=' : '=', value: unescapeFieldValue(split.rhs) });
  }
  // ParseSelector runs an identity Transform, which already drops `=` and `!=` with both sides empty.
  return fieldSelectorFrom(requirements);
}

/** A selector over the given terms, keeping their order. */
export function fieldSelectorFrom(requirements: readonly FieldRequirement[]): FieldSelector {
  const reqs = requirements.filter((r) => r.field !== '' || r.value !== '');
  const selector: FieldSelector = {
    requirements: reqs,
    empty: reqs.length === 0,
    toString: () => reqs.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(','),
    matches: (get) =>
      reqs.every((r) => {
        const have = get(r.field) ?? '';
        return r.operator === '=' ? have === r.value : have !== r.value;
      }),
    transform: (fn) =>
      fieldSelectorFrom(
        reqs.map((r) => {
          const { field, value } = fn(r.field, r.value);
          return { field, operator: r.operator, value };
        }),
      ),
  };
  return selector;
}

/** fields.OneTermEqualSelector. */
export const fieldSelectorEquals = (field: string, value: string): FieldSelector => fieldSelectorFrom([{ field, operator: '=', value }]);

/** Selector.RequiresExactMatch: the value of the first `field=value` term; `!=` terms are skipped. */
export function requiresExactMatch(sel: FieldSelector, field: string): string | undefined {
  return sel.requirements.find((r) => r.field === field && r.operator === '=')?.value;
}

/** The name a selector pins with `metadata.name=<name>`, if any. */
export const selectorMetadataName = (sel: FieldSelector): string | undefined => requiresExactMatch(sel, 'metadata.name');

/**
 * Whether a selector pins `metadata.name` to exactly `name` (other terms may accompany it, as the
 * apiserver allows on a named watch).
 */
export const requiresExactName = (sel: FieldSelector, name: string): boolean => selectorMetadataName(sel) === name;

/**
 * The apiserver's rule for a request on a single named object (`.../watch/.../<name>`, or
 * `?watch=1` on a name): no selector becomes `metadata.name=<name>`; otherwise the selector must
 * pin that name or the request is a 400 with the exact Go text, thrown here as SelectorParseError.
 */
export function fieldSelectorForName(sel: FieldSelector | undefined, name: string): FieldSelector {
  if (!sel || sel.empty) return fieldSelectorEquals('metadata.name', name);
  if (!requiresExactName(sel, name)) throw new SelectorParseError("fieldSelector metadata.name doesn't match requested name");
  return sel;
}

/** fields.EscapeValue: `\` → `\\`, `,` → `\,`, `=` → `\=`. */
export function escapeFieldValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => '\\' + c);
}

/** fields.UnescapeValue: only `\\`, `\,` and `\=` are escapes; a bare `,` or `=` is an error. */
export function unescapeFieldValue(s: string): string {
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      // Go formats the rune with %v, so the message carries its code point (44 or 61).
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (inSlash) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** splitTerms: split on commas not preceded by a backslash escape; escapes stay in the terms. */
function splitTerms(s: string): string[] {
  if (s === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

// `!=` and `==` are tried before `=` so `a==b` does not leave `=b` as the value.
const TERM_OPERATORS = ['!=', '==', '='] as const;

/** splitTerm: the first operator occurrence splits; the field side has no escaping. */
function splitTerm(term: string): { lhs: string; op: (typeof TERM_OPERATORS)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}
