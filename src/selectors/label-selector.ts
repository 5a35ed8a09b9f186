// Label selectors (`?labelSelector=`): a port of labels.Parse, with the same grammar, the same
// sorted-by-key result and the same error texts (apimachinery/pkg/labels/selector.go, v1.36).
import { fieldErrorMessage } from '../errors/field-error.ts';
import { compareGoStrings } from './go-strings.ts';
import { Lexer, type ScannedItem, type Token } from './label-lexer.ts';
import {
  BINARY_OPERATORS,
  PARSER_KEY_PATH,
  labelKeyError,
  newRequirement,
  requirementMatches,
  requirementString,
  type LabelOperator,
  type LabelRequirement,
} from './label-requirement.ts';
import { SelectorParseError } from './selector-error.ts';

export type { LabelOperator, LabelRequirement } from './label-requirement.ts';
export { SelectorParseError } from './selector-error.ts';

export interface LabelSelector {
  /** All requirements hold (AND). A missing or empty label map is a set with no labels. */
  matches(labels: Record<string, string> | undefined): boolean;
  /** True when the selector restricts nothing (no requirements). */
  readonly empty: boolean;
  /** Requirements sorted by key, as the Go selector holds them. */
  readonly requirements: readonly LabelRequirement[];
  /** The canonical form Go prints: terms sorted by key, joined by ",". */
  toString(): string;
}

/** Parses a label selector; throws SelectorParseError with the Go parser's text. */
export function parseLabelSelector(text: string): LabelSelector {
  const requirements = new Parser(text).parse();
  // Go's sort.Sort is insertion sort (stable) up to 12 terms; beyond that only the order of
  // terms sharing a key could differ, which changes toString() and nothing else.
  requirements.sort((a, b) => compareGoStrings(a.key, b.key));
  return makeSelector(requirements);
}

/** A selector from already-built requirements (for callers composing selectors in code). */
export function labelSelectorFrom(requirements: readonly LabelRequirement[]): LabelSelector {
  return makeSelector([...requirements].sort((a, b) => compareGoStrings(a.key, b.key)));
}

function makeSelector(requirements: readonly LabelRequirement[]): LabelSelector {
  return {
    requirements,
    empty: requirements.length === 0,
    matches: (labels) => requirements.every((r) => requirementMatches(r, labels)),
    toString: () => requirements.map(requirementString).join(','),
  };
}

const fail = (message: string): never => {
  throw new SelectorParseError(message);
};

/** In a value position the keywords `in`/`notin` are plain identifiers (`x in (in)`). */
type Context = 'keyAndOperator' | 'values';

class Parser {
  private readonly items: ScannedItem[] = [];
  private position = 0;

  constructor(text: string) {
    const lexer = new Lexer(text);
    for (;;) {
      const item = lexer.lex();
      this.items.push(item);
      if (item.tok === 'end') break;
    }
  }

  private lookahead(ctx: Context): ScannedItem {
    return this.asContext(this.items[Math.min(this.position, this.items.length - 1)]!, ctx);
  }

  private consume(ctx: Context): ScannedItem {
    const item = this.lookahead(ctx);
    this.position++;
    return item;
  }

  private asContext(item: ScannedItem, ctx: Context): ScannedItem {
    return ctx === 'values' && (item.tok === 'in' || item.tok === 'notIn') ? { tok: 'identifier', literal: item.literal } : item;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { tok, literal } = this.lookahead('values');
      if (tok === 'end') return requirements;
      if (tok !== 'identifier' && tok !== 'doesNotExist') fail(`found '${literal}', expected: !, identifier, or 'end of string'`);
      requirements.push(this.parseRequirementWrapped());
      const next = this.consume('values');
      if (next.tok === 'end') return requirements;
      if (next.tok !== 'comma') fail(`found '${next.literal}', expected: ',' or 'end of string'`);
      const after = this.lookahead('values');
      if (after.tok !== 'identifier' && after.tok !== 'doesNotExist') fail(`found '${after.literal}', expected: identifier after ','`);
    }
  }

  private parseRequirementWrapped(): LabelRequirement {
    try {
      return this.parseRequirement();
    } catch (err) {
      if (err instanceof SelectorParseError) throw new SelectorParseError(`unable to parse requirement: ${err.message}`);
      throw err;
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, [...values].sort(compareGoStrings));
  }

  /** The key, with `!` in front meaning does-not-exist and a bare key meaning exists. */
  private parseKeyAndInferOperator(): { key: string; operator: LabelOperator | undefined } {
    let operator: LabelOperator | undefined;
    let item = this.consume('values');
    if (item.tok === 'doesNotExist') {
      operator = '!';
      item = this.consume('values');
    }
    if (item.tok !== 'identifier') fail(`found '${item.literal}', expected: identifier`);
    const keyErr = labelKeyError(item.literal, PARSER_KEY_PATH);
    if (keyErr) fail(fieldErrorMessage(keyErr));
    const t = this.lookahead('values').tok;
    // `!k` followed by anything else still returns `!`: the caller then trips over the rest.
    if ((t === 'end' || t === 'comma') && operator !== '!') operator = 'exists';
    return { key: item.literal, operator };
  }

  private parseOperator(): LabelOperator {
    const { tok, literal } = this.consume('keyAndOperator');
    const op = OPERATOR_TOKENS.get(tok);
    return op ?? fail(`found '${literal}', expected: ${BINARY_OPERATORS.join(', ')}`);
  }

  /** `(a,b,c)`; empty members are the empty string, duplicates collapse. */
  private parseValues(): Set<string> {
    const open = this.consume('values');
    if (open.tok !== 'openPar') fail(`found '${open.literal}' expected: '('`);
    const first = this.lookahead('values');
    switch (first.tok) {
      case 'identifier':
      case 'comma': {
        const values = this.parseIdentifiersList();
        // Unreachable (the list only ends at ')'), kept for parity with Go's message.
        if (this.consume('values').tok !== 'closedPar') fail(`found '${first.literal}', expected: ')'`);
        return values;
      }
      case 'closedPar':
        this.consume('values');
        return new Set(['']);
      default:
        return fail(`found '${first.literal}', expected: ',', ')' or identifier`);
    }
  }

  private parseIdentifiersList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const { tok, literal } = this.consume('values');
      if (tok === 'identifier') {
        values.add(literal);
        const next = this.lookahead('values');
        if (next.tok === 'comma') continue;
        if (next.tok === 'closedPar') return values;
        fail(`found '${next.literal}', expected: ',' or ')'`);
      } else if (tok === 'comma') {
        // A leading, doubled or trailing comma stands for an empty value.
        if (values.size === 0) values.add('');
        const next = this.lookahead('values').tok;
        if (next === 'closedPar') {
          values.add('');
          return values;
        }
        if (next === 'comma') values.add('');
      } else {
        fail(`found '${literal}', expected: ',', or identifier`);
      }
    }
  }

  /** The single value after `=`, `==`, `!=`, `>`, `<`; nothing before ',' or the end means "". */
  private parseExactValue(): Set<string> {
    const next = this.lookahead('values').tok;
    if (next === 'end' || next === 'comma') return new Set(['']);
    const { tok, literal } = this.consume('values');
    if (tok === 'identifier') return new Set([literal]);
    return fail(`found '${literal}', expected: identifier`);
  }
}

const OPERATOR_TOKENS = new Map<Token, LabelOperator>([
  ['in', 'in'],
  ['equals', '='],
  ['doubleEquals', '=='],
  ['greaterThan', 'gt'],
  ['lessThan', 'lt'],
  ['notIn', 'notin'],
  ['notEquals', '!='],
]);
