// Machinery kubefake loads on first use (the CEL engine, the protobuf decoder, the OpenAPI tables) must behave as if it were always there:
// in a fresh process, importing kubefake loads no CEL, and a CRD with rules as the process's very
// first write is checked and enforced as usual. A child process, because test files share a worker.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('CEL on first use', () => {
  it('is not loaded by the import, and checks and enforces the rules of the first CRD of a fresh process', () => {
    const probe = fileURLToPath(new URL('./support/lazy-cel-probe.ts', import.meta.url));
    const child = spawnSync(process.execPath, [probe], { encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
    expect(result.celAtImport).toBe(false);
    expect(result.badRule[0]).toBe(422);
    expect(result.badRule[1]).toMatch(/compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '\(int, bool\)'/);
    expect(result.created).toBe(201);
    expect(result.rejected).toEqual([422, expect.stringContaining('replicas must be below 5')]);
    expect(result.accepted).toBe(201);
    expect(result.celAfter).toBe(true);
    expect(result.protobuf).toEqual([400, expect.stringMatching(/^the object provided is unrecognized \(must be of type ConfigMap\): /)]);
    expect(result.openapi).toEqual([200, '3.0.0', true]);
    // The generated OpenAPI definitions are not loaded by the import or a new cluster, only by the first /openapi request.
    expect(result.openapiTables).toEqual([false, true]);
  }, 60_000);
});
