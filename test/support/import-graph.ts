// The import graph of src/, read with the TypeScript parser of @swc/core (already a dev
// dependency for the Jest example), and the two checks test/architecture.test.ts makes of it:
// layer rules (which folder may not import which) and import circles (Tarjan's strongly
// connected components). Every kind of import counts, type-only ones included: a type-only
// circle is still two modules that cannot be understood apart, and a type imported from
// `http/` is still the semantic layer knowing about HTTP.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseSync } from '@swc/core';

/** file (relative to the root, `/`-separated) → the relative files it imports. */
export type ImportGraph = Map<string, Set<string>>;

/** The module specifiers one TypeScript source names: static, re-export, dynamic and type imports. */
export function importSpecifiers(source: string): string[] {
  const module = parseSync(source, { syntax: 'typescript', tsx: false });
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    switch (n.type) {
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
      case 'ExportNamedDeclaration': {
        const src = n.source as { value?: unknown } | null | undefined;
        if (typeof src?.value === 'string') found.push(src.value);
        break;
      }
      case 'CallExpression': {
        const callee = n.callee as { type?: string } | undefined;
        const args = n.arguments as { expression?: { type?: string; value?: unknown } }[] | undefined;
        const first = args?.[0]?.expression;
        if (callee?.type === 'Import' && first?.type === 'StringLiteral' && typeof first.value === 'string') {
          found.push(first.value);
        }
        break;
      }
      case 'TsImportType': {
        const arg = n.argument as { value?: unknown } | undefined;
        if (typeof arg?.value === 'string') found.push(arg.value);
        break;
      }
    }
    for (const [key, value] of Object.entries(n)) {
      if (key !== 'span' && value !== null && typeof value === 'object') walk(value);
    }
  };
  walk(module.body);
  return found;
}

function listTsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listTsFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Reads every .ts file under `root/dir` and the relative imports between them. */
export function readImportGraph(root: string, dir = 'src'): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of listTsFiles(join(root, dir))) {
    const from = relative(root, file).split('\\').join('/');
    const targets = new Set<string>();
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue; // packages and node: built-ins
      targets.add(relative(root, resolve(dirname(file), spec)).split('\\').join('/'));
    }
    graph.set(from, targets);
  }
  return graph;
}

/**
 * A layer rule: files under `from` must not import files under any of `mayNotImport`, save the
 * files under `except`. Entries are folders or files, relative to the root.
 */
export interface LayerRule {
  from: string[];
  mayNotImport: string[];
  except?: string[];
  why: string;
}

export interface LayerViolation {
  importer: string;
  imported: string;
  why: string;
}

const under = (file: string, entry: string): boolean => file === entry || file.startsWith(entry.endsWith('/') ? entry : `${entry}/`);

/** Each forbidden import once, with the first rule it breaks. */
export function layerViolations(graph: ImportGraph, rules: readonly LayerRule[]): LayerViolation[] {
  const out: LayerViolation[] = [];
  for (const [importer, targets] of graph) {
    for (const imported of targets) {
      const rule = rules.find(
        (r) => r.from.some((f) => under(importer, f)) && r.mayNotImport.some((f) => under(imported, f)) && !r.except?.some((f) => under(imported, f)),
      );
      if (rule) out.push({ importer, imported, why: rule.why });
    }
  }
  return out.sort((a, b) => `${a.importer} ${a.imported}`.localeCompare(`${b.importer} ${b.imported}`));
}

/**
 * The import circles: strongly connected components (Tarjan) of more than one file, plus any
 * file that imports itself. Each circle is listed sorted, the list sorted by its first file.
 */
export function importCircles(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const circles: string[][] = [];

  // Iterative Tarjan: the graph is small, but recursion depth should not depend on it.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edges: string[]; next: number }[] = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: [...(graph.get(node) ?? [])], next: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.next < frame.edges.length) {
        const to = frame.edges[frame.next++]!;
        if (!graph.has(to)) continue; // imports of files outside the graph cannot close a circle
        if (!index.has(to)) enter(to);
        else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || graph.get(frame.node)?.has(frame.node)) circles.push(component.sort());
      }
    }
  }
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
