// A small parser for protobuf text format, enough for cel-spec's SimpleTestFile: messages become
// objects whose fields are arrays (fields repeat), scalars stay as their source text (numbers,
// enum names) or decoded bytes (strings), so int64 and uint64 values keep every digit.

export type TextValue = TextMessage | TextScalar;
export interface TextMessage {
  [field: string]: TextValue[];
}
export interface TextScalar {
  /** Identifier or number token as written (`123`, `-1.5e3`, `INT64`, `true`, `inf`). */
  token?: string;
  /** A string literal's bytes. */
  bytes?: Uint8Array;
}

export const isMessage = (v: TextValue | undefined): v is TextMessage => v !== undefined && !('token' in v) && !('bytes' in v);

class Lexer {
  private pos = 0;
  private readonly src: string;
  constructor(src: string) {
    this.src = src;
  }

  private skip(): void {
    for (;;) {
      const c = this.src[this.pos];
      if (c === '#') while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      else if (c !== undefined && /\s/.test(c)) this.pos++;
      else return;
    }
  }

  peek(): string | undefined {
    this.skip();
    return this.src[this.pos];
  }

  punct(): string {
    this.skip();
    return this.src[this.pos++]!;
  }

  word(): string {
    this.skip();
    const m = /^[-+]?[A-Za-z0-9_.+-]+/.exec(this.src.slice(this.pos));
    if (!m) throw new Error(`textproto: unexpected ${JSON.stringify(this.src.slice(this.pos, this.pos + 20))}`);
    this.pos += m[0].length;
    return m[0];
  }

  bracketed(): string {
    this.skip();
    const end = this.src.indexOf(']', this.pos);
    const name = this.src.slice(this.pos, end + 1);
    this.pos = end + 1;
    return name;
  }

  string(): Uint8Array {
    const out: number[] = [];
    while (this.peek() === '"' || this.peek() === "'") {
      const quote = this.src[this.pos++]!;
      while (this.src[this.pos] !== quote) {
        if (this.pos >= this.src.length) throw new Error('textproto: unterminated string');
        if (this.src[this.pos] !== '\\') {
          const ch = String.fromCodePoint(this.src.codePointAt(this.pos)!);
          this.pos += ch.length;
          out.push(...new TextEncoder().encode(ch));
          continue;
        }
        this.pos++;
        const e = this.src[this.pos++]!;
        const simple: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '\\': 92, "'": 39, '"': 34, '?': 63 };
        if (e in simple) out.push(simple[e]!);
        else if (e === 'x' || e === 'X') {
          const h = /^[0-9a-fA-F]{1,2}/.exec(this.src.slice(this.pos))![0];
          this.pos += h.length;
          out.push(parseInt(h, 16));
        } else if (e >= '0' && e <= '7') {
          const o = /^[0-7]{1,3}/.exec(this.src.slice(this.pos - 1))![0];
          this.pos += o.length - 1;
          out.push(parseInt(o, 8) & 0xff);
        } else if (e === 'u' || e === 'U') {
          const n = e === 'u' ? 4 : 8;
          out.push(...new TextEncoder().encode(String.fromCodePoint(parseInt(this.src.slice(this.pos, this.pos + n), 16))));
          this.pos += n;
        } else throw new Error(`textproto: bad escape \\${e}`);
      }
      this.pos++;
    }
    return Uint8Array.from(out);
  }
}

function parseValue(lx: Lexer): TextValue {
  const c = lx.peek();
  if (c === '{' || c === '<') {
    lx.punct();
    return parseFields(lx, c === '{' ? '}' : '>');
  }
  if (c === '"' || c === "'") return { bytes: lx.string() };
  return { token: lx.word() };
}

function parseFields(lx: Lexer, close: string | undefined): TextMessage {
  const msg: TextMessage = {};
  for (;;) {
    const c = lx.peek();
    if (c === undefined) {
      if (close !== undefined) throw new Error('textproto: unexpected end');
      return msg;
    }
    if (c === close) {
      lx.punct();
      return msg;
    }
    if (c === ',' || c === ';') {
      lx.punct();
      continue;
    }
    // `[type.googleapis.com/...]` names an Any's payload.
    const name = c === '[' ? lx.bracketed() : lx.word();
    if (lx.peek() === ':') lx.punct();
    const values: TextValue[] = [];
    if (lx.peek() === '[') {
      lx.punct();
      while (lx.peek() !== ']') {
        values.push(parseValue(lx));
        if (lx.peek() === ',') lx.punct();
      }
      lx.punct();
    } else values.push(parseValue(lx));
    (msg[name] ??= []).push(...values);
  }
}

export function parseTextproto(src: string): TextMessage {
  return parseFields(new Lexer(src), undefined);
}
