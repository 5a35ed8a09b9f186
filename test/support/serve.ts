// Runs `kubefake serve` from source in a child process (Node strips the types), as bin/kubefake.js
// runs it from dist, and follows its output.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const root = new URL('../..', import.meta.url).pathname;

/** Runs the CLI from source (Node strips the types), as `bin/kubefake.js` runs it from dist. */
export function serve(args: string[], cwd: string = root) {
  const script = `import(${JSON.stringify(join(root, 'src/cli.ts'))}).then((m) => m.main(${JSON.stringify(args)})).then((code) => process.exit(code))`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (stdout.includes('kubefake is serving')) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`kubefake serve exited with ${code}: ${stderr}`));
    });
  });
  // Runs that are expected to fail never await `ready`; keep its rejection from going unhandled.
  ready.catch(() => undefined);
  return { child, ready, exited, output: () => ({ stdout, stderr }) };
}

