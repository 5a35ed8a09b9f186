// The layers of ARCHITECTURE.md, checked on the imports of every file under src/ (tests included):
// which folder may not import which, and no import circle anywhere. Type-only imports count.
// When this fails, move the code to the layer it belongs to (ARCHITECTURE.md says where) rather
// than adding an exception here.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCircles, importSpecifiers, layerViolations, readImportGraph, type ImportGraph, type LayerRule } from './support/import-graph.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The assembly on top: the cluster, the test harness and the entry points. */
const TOP = ['src/cluster', 'src/harness', 'src/index.ts', 'src/cli.ts', 'src/vitest.ts'];
/** The network and the HTTP layer, which serve the semantics below them. */
const WIRE = ['src/transport', 'src/http', 'src/auth'];
/** The type strategies and the engines beside the registry. */
const BESIDE_REGISTRY = ['src/apis', 'src/apiextensions', 'src/schema', 'src/cel', 'src/patch', 'src/apply', 'src/webhooks', 'src/decoding'];
/**
 * Go-compatible codecs and utilities, error shapes, selectors, metadata validation and generated
 * data; with them the plain JSON object shapes of apis/object.ts, which import nothing.
 */
const GROUND = ['src/go', 'src/util', 'src/errors', 'src/selectors', 'src/validation', 'src/generated', 'src/apis/object.ts', 'src/node-support.ts'];
const ALL_BUT_GROUND = [...TOP, ...WIRE, 'src/admission', 'src/registry', 'src/storage', 'src/controllers', ...BESIDE_REGISTRY];

const LAYER_RULES: readonly LayerRule[] = [
  {
    from: ['src/admission', 'src/registry', 'src/storage', 'src/controllers', ...BESIDE_REGISTRY, ...GROUND],
    mayNotImport: [...WIRE, ...TOP],
    why: 'the semantics know nothing of HTTP, the transport or the cluster assembly',
  },
  { from: WIRE, mayNotImport: TOP, why: 'http/ and transport/ are assembled by cluster/, not the other way round' },
  { from: ['src/http'], mayNotImport: ['src/transport'], why: 'http/ answers requests whichever transport brought them' },
  { from: ['src/http', 'src/transport'], mayNotImport: ['src/auth'], why: 'the authentication and authorization filters wrap the API handler; it does not call them' },
  { from: ['src/registry'], mayNotImport: ['src/controllers'], why: 'controllers write through the registry, not the other way round' },
  {
    from: ['src/registry', 'src/storage', 'src/controllers', ...BESIDE_REGISTRY],
    mayNotImport: ['src/admission'],
    why: 'admission plugins are assembled by the cluster; the registry knows only its seam, registry/admission.ts',
  },
  { from: ['src/apis'], mayNotImport: ['src/registry', 'src/controllers'], why: 'types and strategies sit below the pipeline that runs them' },
  {
    from: BESIDE_REGISTRY,
    mayNotImport: ['src/registry', 'src/storage', 'src/controllers'],
    why: 'the engines beside the registry are called by it and do not call into it',
  },
  { from: ['src/storage'], mayNotImport: ALL_BUT_GROUND.filter((f) => f !== 'src/storage'), except: ['src/apis/object.ts'], why: 'storage is the bottom of the pipeline: ground floor only' },
  { from: ['src/generated'], mayNotImport: ['src'], why: 'generated data is self-contained' },
  { from: GROUND, mayNotImport: ALL_BUT_GROUND, except: ['src/apis/object.ts'], why: 'the ground floor imports only the ground floor' },
];

describe('import graph reader', () => {
  it('finds static, re-export, side-effect, dynamic and type imports, and ignores look-alikes in strings', () => {
    const source = [
      "import type { A } from './a.ts';",
      "import { type B, c } from '../b.ts';",
      "export * from './c.ts';",
      "export { d } from './d.ts';",
      "import './e.ts';",
      "const f = await import('./f.ts');",
      "type G = import('./g.ts').G;",
      "const text = \"import { h } from './h.ts'\";",
      '// import { i } from "./i.ts";',
    ].join('\n');
    expect(importSpecifiers(source).sort()).toEqual(['../b.ts', './a.ts', './c.ts', './d.ts', './e.ts', './f.ts', './g.ts']);
  });
});

describe('cycle detection', () => {
  const graph = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));

  it('reports each circle once, with every file on it', () => {
    const g = graph({
      'src/a.ts': ['src/b.ts'],
      'src/b.ts': ['src/c.ts', 'src/d.ts'],
      'src/c.ts': ['src/a.ts'],
      'src/d.ts': ['src/e.ts'],
      'src/e.ts': ['src/d.ts'],
      'src/f.ts': ['src/f.ts'],
      'src/g.ts': ['src/a.ts', 'node_modules/x.js'],
    });
    expect(importCircles(g)).toEqual([['src/a.ts', 'src/b.ts', 'src/c.ts'], ['src/d.ts', 'src/e.ts'], ['src/f.ts']]);
  });

  it('finds none in a graph without one', () => {
    expect(importCircles(graph({ 'src/a.ts': ['src/b.ts', 'src/c.ts'], 'src/b.ts': ['src/c.ts'], 'src/c.ts': [] }))).toEqual([]);
  });
});

describe('layer rules', () => {
  it('catch a planted violation of each kind', () => {
    const planted: ImportGraph = new Map([
      ['src/patch/x.ts', new Set(['src/http/go-json.ts'])],
      ['src/apis/builtin/y.ts', new Set(['src/registry/context.ts', 'src/apis/object.ts'])],
      ['src/http/z.ts', new Set(['src/cluster/version.ts', 'src/registry/list.ts'])],
      ['src/go/w.ts', new Set(['src/cel/library/netip.ts', 'src/apis/object.ts', 'src/errors/go-format.ts'])],
      ['src/generated/v.ts', new Set(['src/apply/builtin-schema.ts'])],
      ['src/storage/u.ts', new Set(['src/registry/watch.ts', 'src/util/deep-equal.ts'])],
      ['src/http/t.ts', new Set(['src/transport/msw-network.ts'])],
      ['src/registry/s.ts', new Set(['src/controllers/context.ts', 'src/storage/versioned-store.ts'])],
    ]);
    expect(layerViolations(planted, LAYER_RULES).map((v) => `${v.importer} -> ${v.imported}`)).toEqual([
      'src/apis/builtin/y.ts -> src/registry/context.ts',
      'src/generated/v.ts -> src/apply/builtin-schema.ts',
      'src/go/w.ts -> src/cel/library/netip.ts',
      'src/http/t.ts -> src/transport/msw-network.ts',
      'src/http/z.ts -> src/cluster/version.ts',
      'src/patch/x.ts -> src/http/go-json.ts',
      'src/registry/s.ts -> src/controllers/context.ts',
      'src/storage/u.ts -> src/registry/watch.ts',
    ]);
  });
});

describe('src/ as it is', () => {
  const graph = readImportGraph(ROOT);

  it('reads every source file', () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('src/index.ts')?.size).toBeGreaterThan(0);
  });

  it('keeps the layers one-way', () => {
    expect(layerViolations(graph, LAYER_RULES).map((v) => `${v.importer} -> ${v.imported}: ${v.why}`)).toEqual([]);
  });

  it('places every folder and file directly under src/ in a layer', () => {
    // A new top-level folder is a decision: add it to one of the lists above and to ARCHITECTURE.md.
    const placed = [...TOP, ...WIRE, 'src/admission', 'src/registry', 'src/storage', 'src/controllers', ...BESIDE_REGISTRY, ...GROUND];
    const entries = readdirSync(new URL('../src', import.meta.url), { withFileTypes: true })
      .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
      .map((e) => `src/${e.name}`);
    expect(entries.filter((e) => !placed.includes(e))).toEqual([]);
  });

  it('names the generator and the upstream version at the top of every generated module', () => {
    const generated = [...graph.keys()].filter((f) => f.startsWith('src/generated/'));
    expect(generated.length).toBeGreaterThan(0);
    for (const file of generated) {
      const head = readFileSync(new URL(`../${file}`, import.meta.url), 'utf8').split('\n').slice(0, 3).join('\n');
      expect(head, file).toMatch(/^\/\/ GENERATED by scripts\/\S+ /);
      expect(head, file).toMatch(/\bv\d+\.\d+(\.\d+)?\b/);
      expect(head, file).toMatch(/Do not edit/);
    }
  });

  it('apis/object.ts, which the ground floor may use, imports nothing', () => {
    expect([...(graph.get('src/apis/object.ts') ?? ['missing'])]).toEqual([]);
  });

  it('has no import circle', () => {
    expect(importCircles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });
});
