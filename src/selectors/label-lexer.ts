// The label selector tokenizer, a port of labels.Lexer (apimachinery/pkg/labels/selector.go).
// It mirrors Go's byte-at-a-time reading closely because error texts quote the token literals:
// every delimiter is ASCII, so working on UTF-16 code units splits the input at the same places.

export type Token =
  | 'error'
  | 'end'
  | 'closedPar'
  | 'comma'
  | 'doesNotExist'
  | 'doubleEquals'
  | 'equals'
  | 'greaterThan'
  | 'identifier'
  | 'in'
  | 'lessThan'
  | 'notEquals'
  | 'notIn'
  | 'openPar';

export interface ScannedItem {
  tok: Token;
  literal: string;
}

const STRING_TO_TOKEN = new Map<string, Token>([
  [')', 'closedPar'],
  [',', 'comma'],
  ['!', 'doesNotExist'],
  ['==', 'doubleEquals'],
  ['=', 'equals'],
  ['>', 'greaterThan'],
  ['in', 'in'],
  ['<', 'lessThan'],
  ['!=', 'notEquals'],
  ['notin', 'notIn'],
  ['(', 'openPar'],
]);

const NUL = '\0';
const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const SPECIAL_SYMBOLS = new Set(['=', '!', '(', ')', ',', '>', '<']);
const isSpecialSymbol = (ch: string): boolean => SPECIAL_SYMBOLS.has(ch);

export class Lexer {
  private readonly s: string;
  private pos = 0;

  constructor(s: string) {
    this.s = s;
  }

  /** Go's read(): returns NUL at the end, and a NUL byte in the input reads the same way. */
  private read(): string {
    if (this.pos < this.s.length) return this.s[this.pos++]!;
    return NUL;
  }

  private unread(): void {
    this.pos--;
  }

  private scanIdOrKeyword(): ScannedItem {
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === NUL) break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
    }
    return { tok: STRING_TO_TOKEN.get(buffer) ?? 'identifier', literal: buffer };
  }

  /** Longest run of special symbols that still forms a token: `!=`, `==`, then single symbols. */
  private scanSpecialSymbol(): ScannedItem {
    let last: ScannedItem | undefined;
    let buffer = '';
    for (;;) {
      const ch = this.read();
      if (ch === NUL) break;
      if (!isSpecialSymbol(ch)) {
        this.unread();
        break;
      }
      buffer += ch;
      const tok = STRING_TO_TOKEN.get(buffer);
      if (tok) last = { tok, literal: buffer };
      else if (last) {
        this.unread();
        break;
      }
    }
    // Unreachable in practice (every single symbol is a token), kept for parity with Go.
    return last ?? { tok: 'error', literal: `error expected: keyword found '${buffer}'` };
  }

  lex(): ScannedItem {
    let ch = this.read();
    while (isWhitespace(ch)) ch = this.read();
    if (ch === NUL) return { tok: 'end', literal: '' };
    this.unread();
    return isSpecialSymbol(ch) ? this.scanSpecialSymbol() : this.scanIdOrKeyword();
  }
}
