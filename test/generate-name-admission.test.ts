// metadata.generateName where kube-apiserver v1.36 resolves it, through client-node: the create
// handler runs mutating admission on the object as sent (no name, AdmissionReview request.name
// empty), the store's Create generates the name (store.go, rest.BeforeCreate) before validation
// and validating admission (rest.AdmissionToValidateObjectFunc names the request by it), keeps a
// name a mutating plugin set, and draws a taken generated name again up to 8 times
// (RetryGenerateName, GA in 1.32) before answering 409 with rest.CheckGeneratedNameError's text.
import * as k8s from '@kubernetes/client-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeCluster, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';

const URL_MUTATE = 'https://hooks.example.com/mutate';
const URL_VALIDATE = 'https://hooks.example.com/validate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { apiVersion: string; kind: string; request: any };

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

const hook = (name: string, url: string) => ({
  name,
  clientConfig: { url },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
});

async function webhooks(on: FakeCluster = cluster): Promise<void> {
  await on.apply([
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'm' }, webhooks: [hook('m.example.com', URL_MUTATE)] },
    { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' }, webhooks: [hook('v.example.com', URL_VALIDATE)] },
  ]);
}

/** Serves `url`, recording each review; `patch` (JSONPatch operations) is the answer's patch. */
function serve(url: string, patch?: unknown[], on: FakeCluster = cluster): Review[] {
  const seen: Review[] = [];
  on.serveWebhook(url, (review: Review) => {
    seen.push(review);
    const response: Record<string, unknown> = { uid: review.request.uid, allowed: true };
    if (patch) Object.assign(response, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') });
    return { apiVersion: review.apiVersion, kind: 'AdmissionReview', response };
  });
  return seen;
}

const generated = (prefix = 'gen-') => ({ metadata: { generateName: prefix }, data: { a: '1' } });
const alreadyTaken = (name: string, prefix = '') => `${prefix}configmaps "${name}" already exists, the server was not able to generate a unique name for the object`;

describe('admission around a generated name', () => {
  it('mutating webhooks review the create without a name; validating webhooks review it by the generated name', async () => {
    await webhooks();
    const mutating = serve(URL_MUTATE, [{ op: 'add', path: '/metadata/labels', value: { seen: 'yes' } }]);
    const validating = serve(URL_VALIDATE);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: generated() });
    const name = created.metadata!.name!;
    expect(name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(created.metadata!.labels).toEqual({ seen: 'yes' });
    expect(mutating).toHaveLength(1);
    expect(mutating[0]!.request.name).toBeUndefined(); // "" is omitted from the review
    expect(mutating[0]!.request.object.metadata).not.toHaveProperty('name');
    expect(mutating[0]!.request.object.metadata.generateName).toBe('gen-');
    expect(validating).toHaveLength(1);
    expect(validating[0]!.request.name).toBe(name);
    expect(validating[0]!.request.object.metadata).toMatchObject({ name, generateName: 'gen-', labels: { seen: 'yes' } });
  });

  it('a name a mutating webhook sets is kept and none is generated', async () => {
    await webhooks();
    serve(URL_MUTATE, [{ op: 'add', path: '/metadata/name', value: 'chosen-by-hook' }]);
    const validating = serve(URL_VALIDATE);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: generated() });
    expect(created.metadata!.name).toBe('chosen-by-hook');
    expect(created.metadata!.generateName).toBe('gen-');
    expect(validating[0]!.request.name).toBe('chosen-by-hook');
    expect((await core.readNamespacedConfigMap({ namespace: 'default', name: 'chosen-by-hook' })).data).toEqual({ a: '1' });
  });

  it('a generateName a mutating webhook changed is the one the name is drawn from; one it removed leaves the name required', async () => {
    await webhooks();
    serve(URL_MUTATE, [{ op: 'replace', path: '/metadata/generateName', value: 'hooked-' }]);
    const validating = serve(URL_VALIDATE);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: generated() });
    expect(created.metadata!.name).toMatch(/^hooked-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(validating[0]!.request.name).toBe(created.metadata!.name);
    serve(URL_MUTATE, [{ op: 'remove', path: '/metadata/generateName' }]);
    const status = await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: generated() }), { code: 422, reason: 'Invalid' });
    expect(status.message).toBe('ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
    expect(validating).toHaveLength(1);
  });

  it('a taken name a mutating webhook set is not retried, and answers the generateName conflict', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'taken' } } });
    await webhooks();
    const mutating = serve(URL_MUTATE, [{ op: 'add', path: '/metadata/name', value: 'taken' }]);
    const validating = serve(URL_VALIDATE);
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: generated() }), {
      code: 409,
      reason: 'AlreadyExists',
      message: alreadyTaken('taken'),
      details: { name: 'taken', kind: 'configmaps', retryAfterSeconds: 1 },
    });
    expect([mutating.length, validating.length]).toEqual([1, 1]);
  });

  it('a taken name of an object being deleted says so before the generateName text', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'leaving', finalizers: ['example.com/hold'] } } });
    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'leaving' });
    await webhooks();
    serve(URL_MUTATE, [{ op: 'add', path: '/metadata/name', value: 'leaving' }]);
    serve(URL_VALIDATE);
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: generated() }), {
      code: 409,
      reason: 'AlreadyExists',
      message: alreadyTaken('leaving', 'object is being deleted: '),
    });
  });

  it('a taken name the client gave alongside generateName answers the generateName conflict too', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'given' } } });
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'given', generateName: 'gen-' } } }), {
      code: 409,
      reason: 'AlreadyExists',
      message: alreadyTaken('given'),
    });
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'given' } } }), {
      code: 409,
      reason: 'AlreadyExists',
      message: 'configmaps "given" already exists',
    });
  });

  it('a generateName namespace is validated by its generated name, with the request namespace it had when sent', async () => {
    const namespaces = { ...hook('ns.example.com', URL_VALIDATE), rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }] };
    await cluster.apply([{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'ns' }, webhooks: [namespaces] }]);
    const validating = serve(URL_VALIDATE);
    const named = await core.createNamespace({ body: { metadata: { name: 'team-a' } } });
    const made = await core.createNamespace({ body: { metadata: { generateName: 'team-' } } });
    expect(made.metadata!.name).toMatch(/^team-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(validating.map((r) => [r.request.namespace, r.request.name])).toEqual([
      [named.metadata!.name, 'team-a'],
      [undefined, made.metadata!.name], // create.go's namespace = name, taken before generation
    ]);
  });

  it('a MutatingAdmissionPolicy sees no name and an empty request.name; a ValidatingAdmissionPolicy sees the generated one', async () => {
    const rules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] };
    await cluster.apply([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingAdmissionPolicy',
        metadata: { name: 'note' },
        spec: {
          matchConstraints: rules,
          mutations: [
            {
              patchType: 'ApplyConfiguration',
              applyConfiguration: {
                expression: 'Object{metadata: Object.metadata{labels: {"had-name": has(object.metadata.name) ? "yes" : "no", "request-name": request.name == "" ? "empty" : "set"}}}',
              },
            },
          ],
        },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name: 'note-binding' }, spec: { policyName: 'note' } },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'named' },
        spec: {
          matchConstraints: rules,
          validations: [{ expression: "request.name == object.metadata.name && request.name.startsWith('gen-')", messageExpression: "'request.name is ' + request.name" }],
        },
      },
      { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'named-binding' }, spec: { policyName: 'named', validationActions: ['Deny'] } },
    ]);
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: generated() });
    expect(created.metadata!.labels).toEqual({ 'had-name': 'no', 'request-name': 'empty' });
    // The same policy refuses a name that is not the object's, naming what it saw.
    await cluster.apply([
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'named' },
        spec: { matchConstraints: rules, validations: [{ expression: "request.name == ''", messageExpression: "'request.name is ' + request.name" }] },
      },
    ]);
    await cluster.settle();
    const status = await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: generated() }), { code: 422, reason: 'Invalid' });
    expect(status.message).toMatch(/: request\.name is gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });
});

describe('retrying a generated name that is taken', () => {
  const SEED = 'generate-name-retry';

  /**
   * A fresh seeded cluster holding ConfigMaps named `taken` (loaded with their server fields, so
   * they draw nothing from the seeded generator) and recording webhooks, then one generateName
   * create through the client: the name made, or the failed call, and the reviews.
   */
  async function createAfter(taken: readonly string[]): Promise<{ name?: string; error?: Promise<unknown>; mutating: number; validated: string[] }> {
    const seeded = await createFakeCluster({ seed: SEED });
    try {
      const objects = taken.map((name, i) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: 'default', uid: `00000000-0000-4000-8000-00000000000${i}`, creationTimestamp: '2025-01-01T00:00:00Z' },
      }));
      if (objects.length) await seeded.apply(objects, { serverFields: 'keep' });
      await webhooks(seeded);
      const mutating = serve(URL_MUTATE, undefined, seeded);
      const validating = serve(URL_VALIDATE, undefined, seeded);
      await seeded.settle();
      const client = seeded.kubeConfig.makeApiClient(k8s.CoreV1Api);
      const call = client.createNamespacedConfigMap({ namespace: 'default', body: generated('x-') });
      const reviewed = () => ({ mutating: mutating.length, validated: validating.map((r) => r.request.name as string) });
      try {
        return { name: (await call).metadata!.name!, ...reviewed() };
      } catch {
        return { error: call, ...reviewed() };
      }
    } finally {
      await seeded.close();
    }
  }

  it('draws a new name for each taken one, 8 attempts in all, then answers 409 with the last name', async () => {
    // With n names taken, the create's first n draws collide: the one it makes is draw n+1. Each
    // attempt is validated again; mutating admission ran once, before any name was drawn.
    const draws: string[] = [];
    for (let taken = 0; taken < 8; taken++) {
      const { name, mutating, validated } = await createAfter(draws);
      expect(name, `created after ${taken} taken names`).toMatch(/^x-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(draws).not.toContain(name);
      draws.push(name!);
      expect({ mutating, validated }).toEqual({ mutating: 1, validated: draws });
    }
    const { error, mutating, validated } = await createAfter(draws);
    await expectStatus(error!, {
      code: 409,
      reason: 'AlreadyExists',
      message: alreadyTaken(draws[7]!),
      details: { name: draws[7], kind: 'configmaps', retryAfterSeconds: 1 },
    });
    expect({ mutating, validated }).toEqual({ mutating: 1, validated: draws });
  });
});
