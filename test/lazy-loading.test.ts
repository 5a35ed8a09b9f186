// Machinery kubefake loads on first use (the CEL engine, the protobuf decoder, the OpenAPI tables) must behave as if it were always there:
// in a fresh process, importing kubefake loads no CEL, and a CRD with rules as the process's very
// first write is checked and enforced as usual. A child process, because test files share a worker.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

describe('machinery on first use', () => {
  let result: any; // the probe's JSON line
  beforeAll(() => {
    const probe = fileURLToPath(new URL('./support/lazy-cel-probe.ts', import.meta.url));
    const child = spawnSync(process.execPath, [probe], { encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    result = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
  }, 60_000);

  it('msw and the table printers are not loaded by the import; a raw fetch to the cluster is intercepted, the first Table prints', () => {
    expect(result.mswAtImport).toBe(false);
    expect(result.printersAtImport).toBe(false);
    expect(result.rawFetch).toEqual([200, 'default']);
    expect(result.table).toEqual([200, 'Table', ['Name', 'Status', 'Age']]);
    expect(result.printersAfter).toBe(true);
  });

  it('RE2 loads with the first pattern to check, not with the import, and gives Go regexp\'s error text', () => {
    expect(result.re2).toEqual([false, false, true]);
    expect(result.badPattern).toEqual([
      422,
      [['spec.validation.openAPIV3Schema.properties[spec].properties[color].pattern', 'Invalid value: "(": must be a valid regular expression, but isn\'t: error parsing regexp: missing closing ): `(`']],
    ]);
  });

  it('the patch engines load with the first PATCH, not with the import or a cluster, and patch', () => {
    expect(result.patch).toEqual([false, true, 200, 'yes']);
  });

  it('the listener and the TLS certificate machinery load with the first listen({ tls: true }), not with the import or a cluster, and serve HTTPS', () => {
    expect(result.tls).toEqual([false, false, true]);
    // The listener itself (node:http, node:https) loads with the first listen() too.
    expect(result.listener).toEqual([false, true]);
    expect(result.tlsAnswer).toEqual([200, 'default']);
  });

  it('authentication and RBAC load with the first auth: true cluster, not with the import or a plain cluster, and authorize', () => {
    expect(result.auth).toEqual([false, true, 403]);
  });

  it('the workloads control plane loads with the first workloads: true cluster, not with the import or a plain cluster, and registers its node', () => {
    expect(result.workloads).toEqual([false, false, false, true, ['kubefake-node-1']]);
  });

  it("PodSecurity's checks load with the first pod evaluated against a policy, not with the import, a cluster or a pod in a privileged namespace, and enforce", () => {
    const [atImport, afterCluster, privilegedStatus, beforeCheck, after, refusedStatus, message] = result.podSecurity;
    expect([atImport, afterCluster, privilegedStatus, beforeCheck, after, refusedStatus]).toEqual([false, false, 201, false, true, 403]);
    expect(message).toMatch(/^pods "p" is forbidden: violates PodSecurity "restricted:latest": privileged \(container "c" must not set securityContext.privileged=true\)/);
  });

  it('the JSON patch engine of mutating webhooks loads with the first answer carrying a patch, and applies it', () => {
    expect(result.webhookPatch).toEqual([false, false, false, true, 201, { mutated: 'yes' }]);
  });

  it('the webhook configurations’ defaulting and validation load with the first one written, and default it', () => {
    expect(result.admissionValidation).toEqual([false, false, true, 'Fail']);
  });

  it('the CronJob validation loads with the first CronJob write, and refuses a bad schedule', () => {
    expect(result.cronJobValidation).toEqual([false, true, 422, ['spec.schedule']]);
  });

  it('the CRD validation loads with the first CRD write, and the custom resource types with the first CRD served, not with the import or a cluster', () => {
    expect(result.crdValidation).toEqual([false, false, false, true]);
    expect(result.customResourceTypes).toEqual([false, true]);
  });

  it('CEL is not loaded by the import, and checks and enforces the rules of the first CRD of a fresh process', () => {
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
  });
});
