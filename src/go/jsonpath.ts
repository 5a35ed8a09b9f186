// A port of client-go util/jsonpath (parser.go, jsonpath.go) as the CRD table convertor uses it:
// templates like `{.spec.replicas}` or `{.status.conditions[?(@.type=="Ready")].status}`,
// evaluated over unstructured JSON with missing keys allowed. `range`/`end` (kubectl's template
// loops) are not supported: they cannot appear in a printer column's single expression.
//
// Known deviation: Go tells int64 from float64 in decoded JSON (`1` vs `1.0`); here a number is an
// integer when Number.isInteger says so. It only matters for filter comparisons (`int` vs `float`
// is an error in Go) and for how a float prints.

export class JsonPathError extends Error {}

interface ListNode {
  type: 'list';
  nodes: Node[];
}
type Param = { value: number; known: boolean; derived: boolean };
type Node =
  | ListNode
  | { type: 'text'; text: string }
  | { type: 'field'; name: string }
  | { type: 'array'; params: [Param, Param, Param] }
  | { type: 'filter'; left: ListNode; right: ListNode; op: string }
  | { type: 'int' | 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'union'; nodes: ListNode[] }
  | { type: 'identifier'; name: string };

const EOF = '';
const list = (): ListNode => ({ type: 'list', nodes: [] });

class Parser {
  root: ListNode = list();
  private input = '';
  private pos = 0;
  private start = 0;

  parse(text: string): ListNode {
    this.input = text;
    this.root = list();
    this.pos = 0;
    this.start = 0;
    this.parseText(this.root);
    return this.root;
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }
  private next(): string {
    if (this.pos >= this.input.length) return EOF;
    return this.input[this.pos++]!;
  }
  private backup(): void {
    this.pos--;
  }
  private peek(): string {
    return this.pos >= this.input.length ? EOF : this.input[this.pos]!;
  }
  private rest(): string {
    return this.input.slice(this.pos);
  }

  private parseText(cur: ListNode): void {
    for (;;) {
      if (this.rest().startsWith('{')) {
        if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
        this.pos += 1;
        this.consumeText();
        const action = list();
        cur.nodes.push(action);
        this.parseInsideAction(action);
        return;
      }
      if (this.next() === EOF) break;
    }
    if (this.pos > this.start) cur.nodes.push({ type: 'text', text: this.consumeText() });
  }

  private parseInsideAction(cur: ListNode): void {
    for (;;) {
      const rest = this.rest();
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        this.parseText(this.root);
        return;
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === EOF || r === '\r' || r === '\n') throw new JsonPathError('unclosed action');
      if (r === ' ' || r === '@' || r === '$') this.consumeText();
      else if (r === '[') this.parseArray(cur);
      else if (r === '"' || r === "'") this.parseQuote(cur, r);
      else if (r === '.') this.parseField(cur);
      else if (r === '+' || r === '-' || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else throw new JsonPathError(`unrecognized character in action: ${r}`);
    }
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      const c = this.next();
      if (isTerminator(c)) {
        if (c !== EOF) this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    const last = cur.nodes[cur.nodes.length - 1];
    if (last?.type === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    const r = this.peek();
    if (r === '+' || r === '-') this.next();
    for (;;) {
      const c = this.next();
      if (c !== '.' && !isDigit(c)) {
        if (c !== EOF) this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (/^[+-]?\d+$/.test(value)) cur.nodes.push({ type: 'int', value: Number(value) });
    else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) cur.nodes.push({ type: 'float', value: Number(value) });
    else throw new JsonPathError(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const c = this.next();
      if (c === EOF || c === '\n') throw new JsonPathError('unterminated array');
      if (c === ']') break;
    }
    let text = this.consumeText().slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      cur.nodes.push({ type: 'union', nodes: parts.map((p) => parseAction(`[${p.trim()}]`)) });
      return;
    }
    const dictKey = /^'([^']*)'$/.exec(text);
    if (dictKey) {
      cur.nodes.push(...parseAction(`.${dictKey[1]}`).nodes);
      return;
    }
    const slice = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/.exec(text);
    if (!slice) throw new JsonPathError(`invalid array index ${text}`);
    const params: [Param, Param, Param] = [0, 1, 2].map(() => ({ value: 0, known: false, derived: false })) as [Param, Param, Param];
    for (let i = 0; i < 3; i++) {
      let v = slice[i + 1] ?? '';
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') params[i]!.known = false;
        else {
          if (!/^-?\d+$/.test(v)) throw new JsonPathError(`array index ${v} is not a number`);
          params[i] = { value: Number(v), known: true, derived: false };
        }
      } else if (i === 1) {
        params[i] = { value: params[0].value + 1, known: true, derived: true };
      }
    }
    cur.nodes.push({ type: 'array', params });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) break;
    }
    if (this.next() !== ']') throw new JsonPathError('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const m = /^([^!<>=]+)([!<>=]+)(.+?)$/s.exec(text);
    if (!m) cur.nodes.push({ type: 'filter', left: parseAction(text), right: list(), op: 'exists' });
    else cur.nodes.push({ type: 'filter', left: parseAction(m[1]!), right: parseAction(m[3]!), op: m[2]! });
  }

  private parseQuote(cur: ListNode, end: string): void {
    for (;;) {
      const c = this.next();
      if (c === EOF || c === '\n') throw new JsonPathError('unterminated quoted string');
      if (c === end && this.input[this.pos - 2] !== '\\') break;
    }
    cur.nodes.push({ type: 'text', text: unquote(this.consumeText()) });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    for (;;) {
      const r = this.next();
      if (r === '\\') this.next();
      else if (isTerminator(r)) {
        if (r !== EOF) this.backup();
        break;
      }
    }
    const value = this.consumeText();
    cur.nodes.push(value === '*' ? { type: 'wildcard' } : { type: 'field', name: value.replaceAll('\\', '') });
  }
}

/** parseAction: the nodes of one `{...}` action. */
function parseAction(text: string): ListNode {
  const root = new Parser().parse(`{${text}}`);
  return root.nodes[0] as ListNode;
}

const isDigit = (r: string): boolean => r >= '0' && r <= '9';
const isAlphaNumeric = (r: string): boolean => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
const isTerminator = (r: string): boolean => r === EOF || ' \t\r\n.,[]$@{}'.includes(r);

/** UnquoteExtend: strconv.Unquote that also takes single quotes. */
function unquote(s: string): string {
  const body = s.slice(1, -1);
  if (!body.includes('\\')) return body;
  return body.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) => {
    if (e[0] === 'u' || e[0] === 'x') return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v' } as Record<string, string>)[e] ?? e;
  });
}

/** A parsed template: FindResults gives one result list per top-level node. */
export class JsonPath {
  private readonly root: ListNode;

  constructor(template: string) {
    this.root = new Parser().parse(template);
  }

  /** FindResults with AllowMissingKeys(true); throws JsonPathError where Go returns an error. */
  findResults(data: unknown): unknown[][] {
    return this.root.nodes.map((node) => walk([data], node));
  }
}

function walk(values: unknown[], node: Node): unknown[] {
  switch (node.type) {
    case 'list':
      return node.nodes.reduce((cur, n) => walk(cur, n), values);
    case 'text':
      return [node.text];
    case 'field':
      return evalField(values, node.name);
    case 'array':
      return evalArray(values, node.params);
    case 'filter':
      return evalFilter(values, node);
    case 'int':
    case 'float':
    case 'bool':
      return values.map(() => node.value);
    case 'wildcard':
      return values.flatMap(children);
    case 'recursive':
      return evalRecursive(values);
    case 'union':
      return node.nodes.flatMap((n) => walk(values, n));
    case 'identifier':
      throw new JsonPathError(`unrecognized identifier ${node.name}`);
  }
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function evalField(values: unknown[], name: string): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (isMap(v) && Object.hasOwn(v, name)) out.push(v[name]);
  }
  return out;
}

/** The elements of a map, slice or string (reflect Index on a string gives its bytes). */
function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (isMap(v)) return Object.values(v);
  if (typeof v === 'string') return [...Buffer.from(v, 'utf8')];
  return [];
}

function evalArray(values: unknown[], nodeParams: [Param, Param, Param]): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (v === null || v === undefined) continue;
    if (!Array.isArray(v)) throw new JsonPathError(`${typeof v} is not array or slice`);
    const p = nodeParams.map((x) => ({ ...x }));
    const len = v.length;
    if (!p[0]!.known) p[0]!.value = 0;
    if (p[0]!.value < 0) p[0]!.value += len;
    if (!p[1]!.known) p[1]!.value = len;
    if (p[1]!.value < 0 || (p[1]!.value === 0 && p[1]!.derived)) p[1]!.value += len;
    if (p[1]!.value === p[0]!.value) return out;
    if (p[0]!.value >= len || p[0]!.value < 0) throw new JsonPathError(`array index out of bounds: index ${p[0]!.value}, length ${len}`);
    if (p[1]!.value > len || p[1]!.value < 0) throw new JsonPathError(`array index out of bounds: index ${p[1]!.value - 1}, length ${len}`);
    if (p[0]!.value > p[1]!.value) throw new JsonPathError(`starting index ${p[0]!.value} is greater than ending index ${p[1]!.value}`);
    const slice = v.slice(p[0]!.value, p[1]!.value);
    let step = 1;
    if (p[2]!.known) {
      if (p[2]!.value <= 0) throw new JsonPathError('step must be > 0');
      step = p[2]!.value;
    }
    for (let i = 0; i < slice.length; i += step) out.push(slice[i]);
  }
  return out;
}

function evalRecursive(values: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (v === null || v === undefined) continue;
    const kids = children(v);
    if (kids.length > 0) out.push(v, ...evalRecursive(kids));
  }
  return out;
}

function evalFilter(values: unknown[], node: { left: ListNode; right: ListNode; op: string }): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (!Array.isArray(v)) throw new JsonPathError('value is not array or slice and cannot be filtered');
    for (const item of v) {
      if (node.op === 'exists') {
        let lefts: unknown[] = [];
        try {
          lefts = walk([item], node.left);
        } catch {
          // Go keeps whatever evalList returned alongside its error; an empty result fails the test.
        }
        if (lefts.length > 0) out.push(item);
        continue;
      }
      const lefts = walk([item], node.left);
      if (lefts.length === 0) continue;
      if (lefts.length > 1) throw new JsonPathError('can only compare one element at a time');
      const rights = walk([item], node.right);
      if (rights.length === 0) continue;
      if (rights.length > 1) throw new JsonPathError('can only compare one element at a time');
      if (compare(lefts[0], rights[0], node.op)) out.push(item);
    }
  }
  return out;
}

type Kind = 'bool' | 'int' | 'float' | 'string';

/** text/template basicKind: anything but a scalar is "invalid type for comparison". */
function basicKind(v: unknown): Kind {
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  throw new JsonPathError('invalid type for comparison');
}

/** The forked text/template eq/lt/... functions the filter operators call. */
function compare(a: unknown, b: unknown, op: string): boolean {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka !== kb) throw new JsonPathError('incompatible types for comparison');
  const less = (): boolean => {
    if (ka === 'bool') throw new JsonPathError('invalid type for comparison');
    return (a as number | string) < (b as number | string);
  };
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return less();
    case '>':
      return !(less() || a === b);
    case '<=':
      return less() || a === b;
    case '>=':
      return !less();
  }
  throw new JsonPathError(`unrecognized filter operator ${op}`);
}
