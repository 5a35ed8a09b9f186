// The scenario format of test/fixtures/crd-docs (see its README.md), as TypeScript types, plus the
// parser that turns the loaded YAML into them. The parser rejects keys it does not know, so a fixture
// feature the runner does not implement fails loudly instead of being silently ignored.

export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export interface Fixture {
  source: string;
  scenarios: Scenario[];
}

export interface Scenario {
  name: string;
  manifests: JsonObject[];
  steps: Step[];
  note?: string;
  /** Scenario keys outside the README format (e.g. `versions`): kept so the runner can name them. */
  unsupported: string[];
}

export const VERBS = ['create', 'update', 'updateStatus', 'get', 'list', 'delete', 'patch', 'getScale', 'updateScale', 'discovery'] as const;
export type Verb = (typeof VERBS)[number];

/** `get`, `list`, `delete`: `{apiVersion, kind, namespace?, name?}`; only `name` means the scenario's first custom kind. */
export interface ObjectRef {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
}

export interface PatchArg {
  name: string;
  type: string;
  body: Json;
  /** Optional addressing; without it the scenario's first custom kind in `default`. */
  apiVersion?: string;
  kind?: string;
  namespace?: string;
}

export interface ScaleArg {
  name: string;
  replicas?: number;
}

export interface DiscoveryArg {
  groupVersion: string;
}

export type StepAction =
  | { verb: 'create' | 'update' | 'updateStatus'; object: JsonObject }
  | { verb: 'get' | 'list' | 'delete'; ref: ObjectRef }
  | { verb: 'patch'; patch: PatchArg }
  | { verb: 'getScale' | 'updateScale'; scale: ScaleArg }
  | { verb: 'discovery'; discovery: DiscoveryArg };

export interface Step {
  /** Undefined for a step that only carries a `note` (nothing the runner can execute). */
  action?: StepAction;
  query: Record<string, string>;
  headers: Record<string, string>;
  eventually: boolean;
  expect: Expectation;
  note?: string;
}

export interface ExpectedCause {
  field?: string;
  reason?: string;
  message?: string;
}

export interface Expectation {
  code?: number;
  reason?: string;
  message?: string;
  messageContains?: string;
  details?: JsonObject;
  causes?: ExpectedCause[];
  causeFields?: string[];
  object?: JsonObject;
  present?: string[];
  absent?: string[];
  names?: string[];
  warnings?: string[];
  columns?: string[];
  cells?: Json[][];
  resources?: JsonObject[];
  /** Free text for humans. */
  note?: string;
}

const EXPECT_KEYS = new Set<string>([
  'code', 'reason', 'message', 'messageContains', 'details', 'causes', 'causeFields', 'object',
  'present', 'absent', 'names', 'warnings', 'columns', 'cells', 'resources', 'note',
]);
const STEP_KEYS = new Set<string>([...VERBS, 'query', 'headers', 'eventually', 'expect', 'note']);
const SCENARIO_KEYS = new Set<string>(['name', 'manifests', 'steps', 'note']);

export class FixtureFormatError extends Error {
  override name = 'FixtureFormatError';
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(where: string, message: string): never {
  throw new FixtureFormatError(`${where}: ${message}`);
}

function stringArray(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) fail(where, 'expected a list of strings');
  return value;
}

function stringMap(value: unknown, where: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isJsonObject(value)) fail(where, 'expected a map');
  // Query values go on the wire as text; YAML may have typed them (`dryRun: All` vs `limit: 1`).
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

export function parseExpectation(value: unknown, where: string): Expectation {
  if (value === undefined) return {};
  if (!isJsonObject(value)) fail(where, 'expect must be a map');
  for (const key of Object.keys(value)) if (!EXPECT_KEYS.has(key)) fail(where, `unsupported expectation "${key}"`);
  const e: Expectation = {};
  if (value.code !== undefined) {
    if (typeof value.code !== 'number') fail(where, 'code must be a number');
    e.code = value.code;
  }
  for (const key of ['reason', 'message', 'messageContains', 'note'] as const) {
    const v = value[key];
    if (v === undefined) continue;
    if (typeof v !== 'string') fail(where, `${key} must be a string`);
    e[key] = v;
  }
  for (const key of ['details', 'object'] as const) {
    const v = value[key];
    if (v === undefined) continue;
    if (!isJsonObject(v)) fail(where, `${key} must be a map`);
    e[key] = v;
  }
  for (const key of ['causeFields', 'present', 'absent', 'names', 'warnings', 'columns'] as const) {
    if (value[key] !== undefined) e[key] = stringArray(value[key], `${where}.${key}`);
  }
  if (value.causes !== undefined) {
    if (!Array.isArray(value.causes)) fail(where, 'causes must be a list');
    e.causes = value.causes.map((c, i) => {
      if (!isJsonObject(c)) fail(`${where}.causes[${i}]`, 'a cause must be a map');
      const cause: ExpectedCause = {};
      for (const [k, v] of Object.entries(c)) {
        if (k !== 'field' && k !== 'reason' && k !== 'message') fail(`${where}.causes[${i}]`, `unsupported cause key "${k}"`);
        if (typeof v !== 'string') fail(`${where}.causes[${i}]`, `${k} must be a string`);
        cause[k] = v;
      }
      return cause;
    });
  }
  if (value.cells !== undefined) {
    if (!Array.isArray(value.cells) || !value.cells.every(Array.isArray)) fail(where, 'cells must be a list of rows');
    e.cells = value.cells as Json[][];
  }
  if (value.resources !== undefined) {
    if (!Array.isArray(value.resources) || !value.resources.every(isJsonObject)) fail(where, 'resources must be a list of maps');
    e.resources = value.resources;
  }
  return e;
}

function parseAction(verb: Verb, arg: Json, where: string): StepAction {
  if (!isJsonObject(arg)) fail(where, `${verb} takes a map`);
  switch (verb) {
    case 'create':
    case 'update':
    case 'updateStatus':
      return { verb, object: arg };
    case 'get':
    case 'list':
    case 'delete': {
      const ref: ObjectRef = {};
      for (const [k, v] of Object.entries(arg)) {
        if (k !== 'apiVersion' && k !== 'kind' && k !== 'namespace' && k !== 'name') fail(where, `unsupported ${verb} key "${k}"`);
        if (typeof v !== 'string') fail(where, `${verb}.${k} must be a string`);
        ref[k] = v;
      }
      return { verb, ref };
    }
    case 'patch': {
      const { name, type, body, apiVersion, kind, namespace } = arg;
      if (typeof name !== 'string' || typeof type !== 'string' || body === undefined) fail(where, 'patch takes {name, type, body}');
      const patch: PatchArg = { name, type, body };
      if (typeof apiVersion === 'string') patch.apiVersion = apiVersion;
      if (typeof kind === 'string') patch.kind = kind;
      if (typeof namespace === 'string') patch.namespace = namespace;
      return { verb, patch };
    }
    case 'getScale':
    case 'updateScale': {
      const { name, replicas } = arg;
      if (typeof name !== 'string') fail(where, `${verb} takes {name, replicas?}`);
      if (replicas !== undefined && typeof replicas !== 'number') fail(where, 'replicas must be a number');
      return { verb, scale: replicas === undefined ? { name } : { name, replicas } };
    }
    case 'discovery': {
      if (typeof arg.groupVersion !== 'string') fail(where, 'discovery takes {groupVersion}');
      return { verb, discovery: { groupVersion: arg.groupVersion } };
    }
  }
}

export function parseStep(value: unknown, where: string): Step {
  if (!isJsonObject(value)) fail(where, 'a step must be a map');
  for (const key of Object.keys(value)) if (!STEP_KEYS.has(key)) fail(where, `unsupported step key "${key}"`);
  const verbs = VERBS.filter((v) => value[v] !== undefined);
  if (verbs.length > 1) fail(where, `one verb per step, got ${verbs.join(', ')}`);
  const step: Step = {
    query: stringMap(value.query, `${where}.query`),
    headers: stringMap(value.headers, `${where}.headers`),
    eventually: value.eventually === true,
    expect: parseExpectation(value.expect, `${where}.expect`),
  };
  const verb = verbs[0];
  if (verb !== undefined) step.action = parseAction(verb, value[verb] as Json, `${where}.${verb}`);
  if (typeof value.note === 'string') step.note = value.note;
  return step;
}

export function parseScenario(value: unknown, where: string): Scenario {
  if (!isJsonObject(value) || typeof value.name !== 'string') fail(where, 'a scenario needs a name');
  const name = value.name;
  const manifests = value.manifests ?? [];
  if (!Array.isArray(manifests) || !manifests.every(isJsonObject)) fail(`${where} ${name}`, 'manifests must be a list of objects');
  const steps = value.steps ?? [];
  if (!Array.isArray(steps)) fail(`${where} ${name}`, 'steps must be a list');
  const scenario: Scenario = {
    name,
    manifests,
    steps: steps.map((s, i) => parseStep(s, `${name} step ${i + 1}`)),
    unsupported: Object.keys(value).filter((k) => !SCENARIO_KEYS.has(k)),
  };
  if (typeof value.note === 'string') scenario.note = value.note;
  return scenario;
}

export function parseFixture(value: unknown, where: string): Fixture {
  if (!isJsonObject(value) || !Array.isArray(value.scenarios)) fail(where, 'a fixture needs `scenarios`');
  const scenarios = value.scenarios.map((s, i) => parseScenario(s, `${where} scenario ${i + 1}`));
  const seen = new Set<string>();
  for (const s of scenarios) {
    if (seen.has(s.name)) fail(where, `duplicate scenario name "${s.name}"`);
    seen.add(s.name);
  }
  return { source: typeof value.source === 'string' ? value.source : '', scenarios };
}
