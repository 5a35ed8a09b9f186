#!/usr/bin/env node
// Lists the kinds each group version of k8s.io/api registers (its register.go addKnownTypes), from
// a git clone of kubernetes/api at a tag, into scripts/upstream/<k8s version>/k8s-api-kinds.json.
// gen-builtin-catalogue.mjs uses the list to check the discovery documents against the Go types
// of the release (a resource a GA version gained after the newest discovery document).
//
//   node scripts/extract-api-kinds.mjs <git-dir of kubernetes/api> v0.36.0 scripts/upstream/v1.36
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [gitDir, tag, outDir] = process.argv.slice(2);
if (!gitDir || !tag || !outDir) {
  console.error('usage: extract-api-kinds.mjs <git-dir> <tag> <out-dir>');
  process.exit(2);
}
const git = (...args) => execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });

const commit = git('rev-list', '-n', '1', tag).trim();
const registers = git('ls-tree', '-r', '--name-only', tag)
  .split('\n')
  .filter((p) => /^[a-z0-9]+\/v[0-9]+(?:(?:alpha|beta)[0-9]+)?\/register\.go$/.test(p));
const groupVersions = {};
for (const path of registers) {
  const source = git('show', `${tag}:${path}`);
  const group = /GroupName\s*=\s*"([^"]*)"/.exec(source)?.[1];
  if (group === undefined) continue;
  const version = path.split('/')[1];
  // The kinds of scheme.AddKnownTypes(SchemeGroupVersion, &Pod{}, &PodList{}, …); List kinds are implied.
  const known = /AddKnownTypes\(SchemeGroupVersion,([\s\S]*?)\n\t\)/.exec(source)?.[1] ?? '';
  const kinds = [...known.matchAll(/&([A-Z][A-Za-z0-9]*)\{\}/g)].map((m) => m[1]).filter((k) => !k.endsWith('List'));
  groupVersions[`${group}/${version}`] = [...new Set(kinds)].sort();
}
const out = { source: `kubernetes/api ${tag} (${commit}), <group>/<version>/register.go`, groupVersions };
writeFileSync(join(outDir, 'k8s-api-kinds.json'), JSON.stringify(out, null, 1) + '\n');
console.log(`wrote ${Object.keys(groupVersions).length} group versions`);
