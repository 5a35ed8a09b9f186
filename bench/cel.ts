// CEL: compile time per rule and evaluation time per object for the engine report's three rules,
// kubefake/cel (schema types, JSON → CEL conversion, RE2 matches, cost metering) against the bare
// engine (typed variables, input already converted). Run alone with `node bench/cel.ts`.
import { Environment } from '@marcbachmann/cel-js';
import { compile } from '../src/cel/index.ts';

interface Case {
  name: string;
  rule: string;
  schema: Record<string, unknown>;
  self: unknown;
  /** The bare engine: declarations and the value as CEL values. */
  bare: { vars: Record<string, string>; value: unknown };
}

const envars = Array.from({ length: 50 }, (_, i) => ({ name: i === 7 ? 'MY_ENV' : `VAR_${i}`, value: 'abcdef' }));
const strings = Array.from({ length: 100 }, (_, i) => `value number ${i}`);
const CASES: Case[] = [
  {
    name: 'R1 replicas ordered',
    rule: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas',
    schema: { type: 'object', properties: { minReplicas: { type: 'integer' }, replicas: { type: 'integer' }, maxReplicas: { type: 'integer' } } },
    self: { minReplicas: 1, replicas: 2, maxReplicas: 3 },
    bare: { vars: { self: 'map<string, int>' }, value: { minReplicas: 1n, replicas: 2n, maxReplicas: 3n } },
  },
  {
    name: 'R2 envars filter + matches (50 items)',
    rule: "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))",
    schema: { type: 'object', properties: { envars: { type: 'array', maxItems: 50, items: { type: 'object', properties: { name: { type: 'string', maxLength: 32 }, value: { type: 'string', maxLength: 32 } } } } } },
    self: { envars },
    bare: { vars: { self: 'map<string, list<map<string, string>>>' }, value: { envars } },
  },
  {
    name: 'R3 all contains (100 strings)',
    rule: "self.all(x, x.contains('a string'))",
    schema: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 32 } },
    self: strings,
    bare: { vars: { self: 'list<string>' }, value: strings },
  },
];

function perOp(iterations: number, fn: () => unknown): number {
  for (let i = 0; i < Math.min(iterations, 2000); i++) fn();
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  return ((performance.now() - t0) * 1e6) / iterations;
}

export async function celSection(iterations = 20_000): Promise<string> {
  const rows: string[] = [];
  for (const c of CASES) {
    const bareEnv = new Environment({ enableOptionalTypes: true });
    for (const [k, t] of Object.entries(c.bare.vars)) bareEnv.registerVariable(k, t);
    const bareCompile = perOp(iterations / 10, () => bareEnv.parse(c.rule).check());
    const ourCompile = perOp(iterations / 10, () => compile(c.rule, c.schema));
    const bare = bareEnv.parse(c.rule);
    bare.check();
    const ours = compile(c.rule, c.schema);
    if (ours.errors.length) throw new Error(ours.errors.join('\n'));
    const bareEval = perOp(iterations, () => bare({ self: c.bare.value }));
    const ourEval = perOp(iterations, () => ours.evaluate(c.self));
    const ns = (v: number) => Math.round(v).toLocaleString('en-US');
    rows.push(`| ${c.name} | ${ns(bareCompile)} | ${ns(ourCompile)} | ${ns(bareEval)} | ${ns(ourEval)} | ${(((ourEval - bareEval) / bareEval) * 100).toFixed(0)}% |`);
  }
  return `## CEL rules

Compile (parse + check; kubefake also builds the node's types and estimates the cost) and evaluation per object, in ns per
operation, for the three rules of the engine report. The bare engine gets typed variables and values already converted
(bigint ints) and uses its JS-RegExp \`matches\`; kubefake converts the JSON object along the schema on every evaluation,
runs \`matches\` on RE2 and meters the cost. Target: evaluation no more than 20% slower than the bare engine.

| rule | bare compile | kubefake compile | bare eval | kubefake eval | eval overhead |
| --- | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await celSection());
  process.exit(0);
}
