// Runs test files in real-cluster mode, as a user runs their suite against kind in CI: a
// `kubefake serve` process (from source) stands in for the cluster and is reached only over HTTP
// through KUBEFAKE_KUBECONFIG (issue 24). The files run one at a time (they share the server, and
// the CRD fixtures create the same cluster-scoped names); fake-only tests skip themselves.
// Usage: node scripts/real-cluster-suite.mjs <test files...>
// Against a real cluster instead (kind, k3s): KUBEFAKE_KUBECONFIG=~/.kube/config npx vitest run
// --project dispatcher --no-file-parallelism <test files...>
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The server and Vitest start from V8's code cache of earlier runs (as vitest.config.ts sets for its workers).
process.env.NODE_COMPILE_CACHE ??= join(root, 'node_modules/.cache/kubefake-compile-cache');
const kubeconfig = join(mkdtempSync(join(tmpdir(), 'kubefake-real-cluster-')), 'config');
const script = `import(${JSON.stringify(join(root, 'src/cli.ts'))}).then((m) => m.main(${JSON.stringify(['serve', '--kubeconfig', kubeconfig])})).then((code) => process.exit(code))`;
const server = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
let banner = '';
await new Promise((resolve, reject) => {
  server.stdout.on('data', (d) => {
    banner += d;
    if (banner.includes('kubefake is serving')) resolve();
  });
  server.on('exit', (code) => reject(new Error(`kubefake serve exited with ${code}`)));
});
const files = process.argv.slice(2);
console.log(`real-cluster suite: KUBEFAKE_KUBECONFIG=${kubeconfig} (a kubefake serve process): ${files.join(' ')}`);
const vitest = spawn(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'dispatcher', '--no-file-parallelism', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, KUBEFAKE_KUBECONFIG: kubeconfig },
});
const code = await new Promise((resolve) => vitest.on('exit', (c) => resolve(c ?? 1)));
server.kill('SIGTERM');
await new Promise((resolve) => (server.exitCode === null ? server.on('exit', resolve) : resolve()));
process.exit(code);
