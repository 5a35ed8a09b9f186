// Checks one step's outcome against its `expect` block. Pure functions over the wire response, so
// the runner self-test can feed them hand-made outcomes and prove that mismatches are detected.
import { isJsonObject, type ExpectedCause, type Expectation, type Json, type JsonObject } from './fixture-types.ts';

/** What the server answered to the step's request, as seen on the wire by client-node. */
export interface StepOutcome {
  code: number;
  /** Parsed JSON body, or the raw text when it is not JSON. */
  body: Json | undefined;
  /** Texts of the `Warning: 299 - "..."` response headers, in order. */
  warnings: string[];
  /** Request that produced it, for failure messages. */
  request: string;
}

export class ExpectationError extends Error {
  override name = 'ExpectationError';
  readonly mismatches: string[];
  constructor(mismatches: string[], outcome: StepOutcome) {
    const body = JSON.stringify(outcome.body) ?? 'undefined';
    super(
      `${mismatches.length} mismatch(es) for ${outcome.request} (got ${outcome.code}):\n` +
        mismatches.map((m) => `  - ${m}`).join('\n') +
        `\n  body: ${body.length > 1500 ? `${body.slice(0, 1500)}…` : body}`,
    );
    this.mismatches = mismatches;
  }
}

const show = (v: unknown): string => JSON.stringify(v) ?? 'undefined';

/**
 * Where `expected` is not a subset of `actual`: maps match key by key (extra actual keys allowed,
 * an expected `null` needs the key present with null), lists match item by item with equal length,
 * scalars are strictly equal.
 */
export function subsetMismatches(expected: Json, actual: Json | undefined, path: string): string[] {
  if (isJsonObject(expected)) {
    if (!isJsonObject(actual)) return [`${path || '<root>'}: expected a map, got ${show(actual)}`];
    return Object.entries(expected).flatMap(([key, value]) => {
      const sub = path ? `${path}.${key}` : key;
      if (!(key in actual)) return [`${sub}: missing, expected ${show(value)}`];
      return subsetMismatches(value, actual[key], sub);
    });
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected a list, got ${show(actual)}`];
    if (actual.length !== expected.length) return [`${path}: expected ${expected.length} item(s) ${show(expected)}, got ${actual.length} ${show(actual)}`];
    return expected.flatMap((item, i) => subsetMismatches(item, actual[i], `${path}[${i}]`));
  }
  return Object.is(expected, actual) ? [] : [`${path || '<root>'}: expected ${show(expected)}, got ${show(actual)}`];
}

/** Looks up a dotted path (`metadata.uid`, `items.0.metadata.name`); `found` tells absent from null. */
export function lookupPath(root: Json | undefined, path: string): { found: boolean; value?: Json } {
  let current: Json | undefined = root;
  for (const segment of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(segment) && Number(segment) < current.length) current = current[Number(segment)];
    else if (isJsonObject(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return { found: false };
  }
  return { found: true, value: current as Json };
}

function causeMatches(expected: ExpectedCause, actual: Json): boolean {
  if (!isJsonObject(actual)) return false;
  return (Object.keys(expected) as (keyof ExpectedCause)[]).every((k) => actual[k] === expected[k]);
}

/** One-to-one assignment of expected to actual causes (backtracking: partial causes may match several). */
function assignCauses(expected: ExpectedCause[], actual: Json[], used: boolean[] = actual.map(() => false), i = 0): boolean {
  if (i === expected.length) return true;
  for (let j = 0; j < actual.length; j++) {
    if (used[j] || !causeMatches(expected[i]!, actual[j]!)) continue;
    used[j] = true;
    if (assignCauses(expected, actual, used, i + 1)) return true;
    used[j] = false;
  }
  return false;
}

export function causesMismatches(expected: ExpectedCause[], actual: Json[]): string[] {
  // "causes lists every expected details.causes entry": same count, each expected one matched once.
  if (expected.length === actual.length && assignCauses(expected, actual)) return [];
  const missing = expected.filter((e) => !actual.some((a) => causeMatches(e, a)));
  const extra = actual.filter((a) => !expected.some((e) => causeMatches(e, a)));
  const lines = [`details.causes: expected exactly ${show(expected)} (any order), got ${show(actual)}`];
  if (missing.length) lines.push(`details.causes: missing ${show(missing)}`);
  if (extra.length) lines.push(`details.causes: unexpected ${show(extra)}`);
  return lines;
}

/** Texts inside the quotes of each warning-value (RFC 7234: `299 - "text"`, comma-joined by fetch). */
export function parseWarningHeader(header: string | undefined): string[] {
  if (!header) return [];
  const out: string[] = [];
  const re = /\d{3}\s+\S+\s+"((?:[^"\\]|\\.)*)"(?:\s+"[^"]*")?\s*(?:,|$)/g;
  for (const m of header.matchAll(re)) out.push(m[1]!.replace(/\\(.)/g, '$1'));
  return out;
}

function statusChecks(e: Expectation, body: JsonObject | undefined): string[] {
  const out: string[] = [];
  const wantsStatus = e.reason !== undefined || e.message !== undefined || e.messageContains !== undefined || e.details !== undefined || e.causes !== undefined || e.causeFields !== undefined;
  if (!wantsStatus) return out;
  if (!body) return ['body: expected a Status object'];
  if (e.reason !== undefined && body.reason !== e.reason) out.push(`reason: expected ${show(e.reason)}, got ${show(body.reason)}`);
  if (e.message !== undefined && body.message !== e.message) out.push(`message: expected ${show(e.message)}, got ${show(body.message)}`);
  if (e.messageContains !== undefined && !(typeof body.message === 'string' && body.message.includes(e.messageContains))) {
    out.push(`message: expected to contain ${show(e.messageContains)}, got ${show(body.message)}`);
  }
  if (e.details !== undefined) out.push(...subsetMismatches(e.details, body.details, 'details'));
  const details = isJsonObject(body.details) ? body.details : undefined;
  const causes = details && Array.isArray(details.causes) ? details.causes : [];
  if (e.causes !== undefined) out.push(...causesMismatches(e.causes, causes));
  if (e.causeFields !== undefined) {
    const fields = causes.map((c) => (isJsonObject(c) ? c.field : undefined));
    for (const f of e.causeFields) if (!fields.includes(f)) out.push(`details.causes: no cause with field ${show(f)} among ${show(fields)}`);
  }
  return out;
}

function tableChecks(e: Expectation, body: JsonObject | undefined): string[] {
  const out: string[] = [];
  if (e.columns !== undefined) {
    const defs = body && Array.isArray(body.columnDefinitions) ? body.columnDefinitions : undefined;
    const names = defs?.map((d) => (isJsonObject(d) ? d.name : undefined));
    if (!names) out.push('columnDefinitions: missing, the response is not a Table');
    else if (show(names) !== show(e.columns)) out.push(`columns: expected ${show(e.columns)}, got ${show(names)}`);
  }
  if (e.cells !== undefined) {
    const rows = body && Array.isArray(body.rows) ? body.rows : undefined;
    if (!rows) out.push('rows: missing, the response is not a Table');
    else if (rows.length !== e.cells.length) out.push(`rows: expected ${e.cells.length}, got ${rows.length}`);
    else {
      // An expected row may be shorter than the real one: trailing cells such as Age are not stable.
      e.cells.forEach((row, i) => {
        const actual = rows[i];
        const cells = isJsonObject(actual) && Array.isArray(actual.cells) ? actual.cells : undefined;
        row.forEach((cell, j) => {
          if (!cells || !Object.is(cells[j], cell)) out.push(`rows[${i}].cells[${j}]: expected ${show(cell)}, got ${show(cells?.[j])}`);
        });
      });
    }
  }
  return out;
}

function itemName(item: Json): Json | undefined {
  return isJsonObject(item) && isJsonObject(item.metadata) ? item.metadata.name : undefined;
}

/** Throws an ExpectationError listing every unmet expectation of `e` for `outcome`. */
export function checkOutcome(e: Expectation, outcome: StepOutcome): void {
  const out: string[] = [];
  const body = isJsonObject(outcome.body) ? outcome.body : undefined;
  if (e.code !== undefined && outcome.code !== e.code) {
    out.push(`code: expected ${e.code}, got ${outcome.code}${body?.kind === 'Status' ? ` (${show(body.reason)}: ${show(body.message)})` : ''}`);
  }
  out.push(...statusChecks(e, body));
  if (e.object !== undefined) out.push(...subsetMismatches(e.object, outcome.body, ''));
  for (const p of e.present ?? []) if (!lookupPath(outcome.body, p).found) out.push(`${p}: expected to be present`);
  for (const p of e.absent ?? []) {
    const hit = lookupPath(outcome.body, p);
    if (hit.found) out.push(`${p}: expected to be absent, got ${show(hit.value)}`);
  }
  if (e.names !== undefined) {
    const items = body && Array.isArray(body.items) ? body.items : undefined;
    if (!items) out.push('items: missing, the response is not a list');
    else {
      const got = items.map(itemName);
      const sorted = (xs: unknown[]) => show([...xs].map((x) => show(x)).sort());
      if (sorted(got) !== sorted(e.names)) out.push(`names: expected ${show(e.names)} (any order), got ${show(got)}`);
    }
  }
  if (e.warnings !== undefined && show(outcome.warnings) !== show(e.warnings)) {
    out.push(`warnings: expected ${show(e.warnings)}, got ${show(outcome.warnings)}`);
  }
  out.push(...tableChecks(e, body));
  if (e.resources !== undefined) {
    const resources = body && Array.isArray(body.resources) ? body.resources : undefined;
    if (!resources) out.push('resources: missing, the response is not an APIResourceList');
    else {
      for (const want of e.resources) {
        const got = resources.find((r) => isJsonObject(r) && r.name === want.name);
        if (!got) out.push(`resources: no resource named ${show(want.name)} among ${show(resources.map((r) => (isJsonObject(r) ? r.name : r)))}`);
        else out.push(...subsetMismatches(want, got, `resources[name=${String(want.name)}]`));
      }
    }
  }
  if (out.length) throw new ExpectationError(out, outcome);
}
