// Admission webhooks through the real client: ValidatingWebhookConfiguration and
// MutatingWebhookConfiguration objects whose webhooks are answered in-process
// (cluster.serveWebhook), with the texts of apiserver/pkg/admission/plugin/webhook at v1.36.
import * as k8s from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { admissionWebhook, createFakeCluster, nodeWebhook, type FakeCluster } from '../src/index.ts';
import { expectStatus } from './support/status.ts';
import { captureWarnings } from './support/warnings.ts';
import { exampleWidgetsCrd } from './support/widgets-crd.ts';

let cluster: FakeCluster;
let core: k8s.CoreV1Api;
beforeEach(async () => {
  cluster = await createFakeCluster();
  core = cluster.kubeConfig.makeApiClient(k8s.CoreV1Api);
});
afterEach(() => cluster.close());

const URL_VALIDATE = 'https://hooks.example.com/validate';
const URL_MUTATE = 'https://hooks.example.com/mutate';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Review = { apiVersion: string; kind: string; request: any };

const configMapRules = (operations = ['CREATE']) => [{ operations, apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];

function hook(name: string, url: string, extra: Record<string, unknown> = {}) {
  return { name, clientConfig: { url }, rules: configMapRules(), sideEffects: 'None', admissionReviewVersions: ['v1'], ...extra };
}

async function validatingConfig(name: string, ...webhooks: Record<string, unknown>[]) {
  await cluster.apply([{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name }, webhooks }]);
}

async function mutatingConfig(name: string, ...webhooks: Record<string, unknown>[]) {
  await cluster.apply([{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name }, webhooks }]);
}

/** An answer to `review`: allowed or not, with more response fields. */
const answer = (review: Review, allowed: boolean, extra: Record<string, unknown> = {}) => ({
  apiVersion: review.apiVersion,
  kind: 'AdmissionReview',
  response: { uid: review.request.uid, allowed, ...extra },
});

const jsonPatch = (ops: unknown[]) => Buffer.from(JSON.stringify(ops)).toString('base64');

const configMap = (name: string, data: Record<string, string> = { a: '1' }, labels?: Record<string, string>) => ({
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});

describe('validating webhooks', () => {
  it('denies with the webhook message, prefixed as the dispatcher does, and the status code and reason it gave', async () => {
    await validatingConfig('deny', hook('deny.example.com', URL_VALIDATE));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, false, { status: { code: 403, reason: 'Forbidden', message: 'no configmaps today' } }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 403,
      reason: 'Forbidden',
      message: 'admission webhook "deny.example.com" denied the request: no configmaps today',
    });
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'a' })).toBeUndefined();
  });

  it('a denial without status is a 400 "without explanation"; a reason stands in for a missing message', async () => {
    await validatingConfig('deny', hook('deny.example.com', URL_VALIDATE));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, false));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 400,
      message: 'admission webhook "deny.example.com" denied the request without explanation',
    });
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, false, { status: { code: 200, reason: 'NotAllowed' } }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 400,
      reason: 'NotAllowed',
      message: 'admission webhook "deny.example.com" denied the request: NotAllowed',
    });
  });

  it('sends an AdmissionReview v1 with the request as the real server builds it', async () => {
    await validatingConfig('record', hook('record.example.com', URL_VALIDATE, { rules: configMapRules(['CREATE', 'UPDATE', 'DELETE']) }));
    const reviews: Review[] = [];
    const requests: Request[] = [];
    cluster.serveWebhook(URL_VALIDATE, (review: Review, request: Request) => {
      reviews.push(review);
      requests.push(request);
      return answer(review, true);
    });
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a'), fieldManager: 'tester' });
    expect(requests[0]!.url).toBe('https://hooks.example.com/validate?timeout=10s');
    expect(requests[0]!.headers.get('content-type')).toBe('application/json');
    const r = reviews[0]!;
    expect(r.apiVersion).toBe('admission.k8s.io/v1');
    expect(r.kind).toBe('AdmissionReview');
    expect(r.request).toEqual({
      uid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' },
      requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      name: 'a',
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'system:admin', groups: ['system:masters', 'system:authenticated'] },
      // Validating admission runs after rest.BeforeCreate: the system fields are set.
      object: expect.objectContaining({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } }),
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'tester' },
    });
    expect(r.request.object.metadata.uid).toBe(created.metadata!.uid);
    expect(r.request.object.metadata.creationTimestamp).toBeDefined();

    await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'a', body: { ...created, data: { a: '2' } } });
    expect(reviews[1]!.request).toMatchObject({ operation: 'UPDATE', options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' } });
    expect(reviews[1]!.request.oldObject.data).toEqual({ a: '1' });
    expect(reviews[1]!.request.object.data).toEqual({ a: '2' });

    await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'a' });
    expect(reviews[2]!.request).toMatchObject({ operation: 'DELETE', name: 'a', object: null, options: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' } });
    expect(reviews[2]!.request.oldObject.data).toEqual({ a: '2' });
  });
});

describe('failurePolicy and call failures', () => {
  it('a handler that throws fails closed with the Internal error the dispatcher gives, or is ignored with failurePolicy Ignore', async () => {
    await validatingConfig('v', hook('boom.example.com', URL_VALIDATE));
    cluster.serveWebhook(URL_VALIDATE, () => {
      throw new Error('boom');
    });
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: failed calling webhook "boom.example.com": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding',
      details: { causes: [{ message: 'failed calling webhook "boom.example.com": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding' }] },
    });
    await validatingConfig('v', hook('boom.example.com', URL_VALIDATE, { failurePolicy: 'Ignore' }));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'a' })).toBeDefined();
  });

  it('a webhook slower than timeoutSeconds fails with context deadline exceeded (real time, not the fake clock)', async () => {
    await mutatingConfig('m', hook('slow.example.com', URL_MUTATE, { timeoutSeconds: 1 }));
    cluster.serveWebhook(URL_MUTATE, () => new Promise(() => undefined));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "https://hooks.example.com/mutate?timeout=1s": context deadline exceeded',
    });
    await mutatingConfig('m', hook('slow.example.com', URL_MUTATE, { timeoutSeconds: 1, failurePolicy: 'Ignore' }));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
  });

  it('a service reference nobody serves fails as the service resolver does', async () => {
    await validatingConfig('v', { ...hook('svc.example.com', ''), clientConfig: { service: { namespace: 'hooks', name: 'webhook', path: '/validate' } } });
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 500,
      message: 'Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://webhook.hooks.svc:443/validate?timeout=10s": services "webhook" not found',
    });
    cluster.serveWebhook({ namespace: 'hooks', name: 'webhook', path: '/validate' }, (review: Review) => answer(review, false, { status: { message: 'served' } }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 400,
      message: 'admission webhook "svc.example.com" denied the request: served',
    });
  });

  it('answers that are not a valid review fail the call with VerifyAdmissionResponse texts', async () => {
    await validatingConfig('v', hook('bad.example.com', URL_VALIDATE));
    const cases: Array<[(review: Review) => unknown, string]> = [
      [(review) => ({ ...answer(review, true), response: undefined }), 'received invalid webhook response: webhook response was absent'],
      [(review) => ({ ...answer(review, true), response: { uid: 'nope', allowed: true } }), `received invalid webhook response: expected response.uid=UID, got "nope"`],
      [(review) => answer(review, true, { patch: jsonPatch([]) }), 'received invalid webhook response: validating webhook may not return response.patch'],
      [(review) => answer(review, true, { patchType: 'JSONPatch' }), 'received invalid webhook response: validating webhook may not return response.patchType'],
      [(review) => ({ ...answer(review, true), apiVersion: 'admission.k8s.io/v1beta1' }), 'failed to call webhook: converting (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion'],
      [(review) => ({ ...answer(review, true), kind: 'ConversionReview' }), 'failed to call webhook: no kind "ConversionReview" is registered for version "admission.k8s.io/v1" in scheme "k8s.io/apiserver/pkg/util/webhook/client.go:71"'],
      [() => new Response(null, { status: 200 }), 'failed to call webhook: 0-length response with status code: 200 and content type: application/json'],
    ];
    for (const [reply, reason] of cases) {
      let uid = '';
      cluster.serveWebhook(URL_VALIDATE, (review: Review) => {
        uid = review.request.uid;
        return reply(review);
      });
      const status = await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), { code: 500, reason: 'InternalError' });
      expect(status.message).toBe(`Internal error occurred: failed calling webhook "bad.example.com": ${reason.replace('UID', JSON.stringify(uid))}`);
    }
  });

  it('a handler answering what JSON cannot carry is a failing webhook, not a crash', async () => {
    await validatingConfig('v', hook('bigint.example.com', URL_VALIDATE));
    cluster.serveWebhook(URL_VALIDATE, () => ({ n: 1n }));
    const status = await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), { code: 500 });
    expect(status.message).toMatch(/^Internal error occurred: failed calling webhook "bigint.example.com": failed to call webhook: an error on the server \(".*BigInt.*"\) has prevented the request from succeeding$/);
    expect((await core.listNamespacedConfigMap({ namespace: 'default' })).items.map((c) => c.metadata?.name)).toEqual(['kube-root-ca.crt']);
  });
});

describe('mutating webhooks', () => {
  it('applies a JSONPatch answer; the webhook sees the create before the system fields are set', async () => {
    await mutatingConfig('m', hook('label.example.com', URL_MUTATE));
    const reviews: Review[] = [];
    cluster.serveWebhook(URL_MUTATE, (review: Review) => {
      reviews.push(review);
      return answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }]) });
    });
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    expect(created.metadata!.labels).toEqual({ mutated: 'yes' });
    expect(created.metadata!.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata!.creationTimestamp).toBeDefined();
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'a' })!.metadata!.labels).toEqual({ mutated: 'yes' });
    const sent = reviews[0]!.request.object.metadata;
    expect(sent.uid).toBeUndefined();
    expect(sent.creationTimestamp).toBeUndefined();
    expect(sent.name).toBe('a');
  });

  it('a generateName create is reviewed without a name (generated after mutating admission); validating webhooks see the name', async () => {
    await mutatingConfig('m', hook('m.example.com', URL_MUTATE));
    await validatingConfig('v', hook('v.example.com', URL_VALIDATE));
    const mutating: Review[] = [];
    const validating: Review[] = [];
    cluster.serveWebhook(URL_MUTATE, (review: Review) => {
      mutating.push(review);
      return answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'add', path: '/data/b', value: '2' }]) });
    });
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => {
      validating.push(review);
      return answer(review, true);
    });
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { generateName: 'gen-' }, data: { a: '1' } } });
    expect(created.metadata!.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(created.data).toEqual({ a: '1', b: '2' });
    expect(mutating[0]!.request.name).toBeUndefined();
    expect(mutating[0]!.request.object.metadata).toEqual({ generateName: 'gen-', namespace: 'default', managedFields: expect.any(Array) });
    // rest.AdmissionToValidateObjectFunc: the validating phase is asked about the generated name.
    expect(validating[0]!.request.name).toBe(created.metadata!.name);
    expect(validating[0]!.request.object.metadata.name).toBe(created.metadata!.name);
  });

  it('mutating webhooks run before validation and validating webhooks, which see the patched object', async () => {
    await mutatingConfig('m', hook('bad-patch.example.com', URL_MUTATE));
    await validatingConfig('v', hook('check.example.com', URL_VALIDATE));
    cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'add', path: '/metadata/labels', value: { 'bad key!': 'x' } }]) }));
    const validated: Review[] = [];
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => {
      validated.push(review);
      return answer(review, true);
    });
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), { code: 422, reason: 'Invalid' });
    expect(validated).toHaveLength(0);
    cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'replace', path: '/data/a', value: 'patched' }]) }));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    expect(validated[0]!.request.object.data).toEqual({ a: 'patched' });
  });

  it('patch answers the dispatcher refuses: no patchType, a patch that is no JSON patch, a DELETE patch', async () => {
    await mutatingConfig('m', hook('p.example.com', URL_MUTATE, { rules: configMapRules(['CREATE', 'DELETE']) }));
    cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, true, { patch: jsonPatch([]) }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 500,
      message: 'Internal error occurred: failed calling webhook "p.example.com": received invalid webhook response: webhook returned response.patch but not response.patchType',
    });
    cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, true, { patchType: 'JSONPatch', patch: Buffer.from('{"op":"add"}').toString('base64') }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 500,
      message: 'Internal error occurred: failed calling webhook "p.example.com": received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    });
    cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, true));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'add', path: '/metadata/labels', value: {} }]) }));
    await expectStatus(core.deleteNamespacedConfigMap({ namespace: 'default', name: 'a' }), {
      code: 500,
      message: 'Internal error occurred: admission webhook "p.example.com" attempted to modify the object, which is not supported for this operation',
    });
  });

  it('a patched object is decoded into the kind as Go does: a wrong type is an Internal error, an unknown field is dropped', async () => {
    await mutatingConfig('m', hook('typed.example.com', URL_MUTATE));
    cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'replace', path: '/data', value: 5 }]) }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 500,
      reason: 'InternalError',
      message: 'Internal error occurred: json: cannot unmarshal number into Go struct field ConfigMap.data of type map[string]string',
    });
    cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'add', path: '/extra', value: 'x' }]) }));
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'a' })).not.toHaveProperty('extra');
    expect(created).not.toHaveProperty('extra');
  });

  it('reinvocationPolicy IfNeeded calls a webhook again when a later one changed the object', async () => {
    const calls: string[] = [];
    await mutatingConfig(
      'm',
      hook('first.example.com', 'https://hooks.example.com/first', { reinvocationPolicy: 'IfNeeded' }),
      hook('second.example.com', 'https://hooks.example.com/second'),
    );
    cluster.serveWebhook('https://hooks.example.com/first', (review: Review) => {
      calls.push(`first:${Object.keys(review.request.object.metadata.labels ?? {}).join(',')}`);
      return answer(review, true);
    });
    cluster.serveWebhook('https://hooks.example.com/second', (review: Review) => {
      calls.push('second');
      const labels = review.request.object.metadata.labels ?? {};
      if (labels.second) return answer(review, true);
      return answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'add', path: '/metadata/labels', value: { ...labels, second: 'done' } }]) });
    });
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    expect(calls).toEqual(['first:', 'second', 'first:second']);
    calls.length = 0;
    await mutatingConfig('m', hook('first.example.com', 'https://hooks.example.com/first'), hook('second.example.com', 'https://hooks.example.com/second'));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('b') });
    expect(calls).toEqual(['first:', 'second']);
  });

  it('configurations run in name order, their webhooks in listed order', async () => {
    const calls: string[] = [];
    for (const name of ['b', 'a', 'c']) {
      const url = `https://hooks.example.com/${name}`;
      cluster.serveWebhook(url, (review: Review) => {
        calls.push(name);
        return answer(review, true);
      });
    }
    await mutatingConfig('zz', hook('c.example.com', 'https://hooks.example.com/c'));
    await mutatingConfig('aa', hook('b.example.com', 'https://hooks.example.com/b'), hook('a.example.com', 'https://hooks.example.com/a'));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    expect(calls).toEqual(['b', 'a', 'c']);
  });
});

describe('dryRun, warnings and review versions', () => {
  it('a NoneOnDryRun webhook is called for a dry run, with dryRun true and the options sent', async () => {
    // (v1 accepts only None and NoneOnDryRun: the refusal of a webhook with side effects is in call.test.ts.)
    const reviews: Review[] = [];
    await validatingConfig('v', hook('fx.example.com', URL_VALIDATE, { sideEffects: 'NoneOnDryRun' }));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => {
      reviews.push(review);
      return answer(review, true);
    });
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a'), dryRun: 'All' });
    expect(reviews[0]!.request.dryRun).toBe(true);
    expect(reviews[0]!.request.options).toEqual({ kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] });
    expect(cluster.get({ kind: 'ConfigMap', namespace: 'default', name: 'a' })).toBeUndefined();
  });

  it('warnings of mutating and validating webhooks come back as Warning headers, in order', async () => {
    await mutatingConfig('m', hook('m.example.com', URL_MUTATE));
    await validatingConfig('v', hook('v.example.com', URL_VALIDATE));
    cluster.serveWebhook(URL_MUTATE, (review: Review) => answer(review, true, { warnings: ['from the mutating webhook'] }));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, true, { warnings: ['from the validating webhook'] }));
    const capture = captureWarnings();
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }, capture.options);
    expect(capture.warnings()).toEqual(['from the mutating webhook', 'from the validating webhook']);
  });

  it('admissionReviewVersions [v1beta1] gets a v1beta1 review, whose answer needs no uid or patchType', async () => {
    await mutatingConfig('m', hook('beta.example.com', URL_MUTATE, { admissionReviewVersions: ['v1beta1'] }));
    const versions: string[] = [];
    cluster.serveWebhook(URL_MUTATE, (review: Review) => {
      versions.push(review.apiVersion);
      return { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { allowed: true, patch: jsonPatch([{ op: 'add', path: '/data/b', value: '2' }]) } };
    });
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    expect(versions).toEqual(['admission.k8s.io/v1beta1']);
    expect(created.data).toEqual({ a: '1', b: '2' });
  });
});

describe('matching', () => {
  /** Records which requests reach a validating webhook at URL_VALIDATE, allowing them all. */
  function recorder() {
    const seen: Review[] = [];
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => {
      seen.push(review);
      return answer(review, true);
    });
    return seen;
  }

  it('namespaceSelector matches the labels of the object\'s namespace, and of a namespace itself', async () => {
    const seen = recorder();
    const selector = { matchExpressions: [{ key: 'webhooks', operator: 'In', values: ['on'] }] };
    await validatingConfig('v', hook('ns.example.com', URL_VALIDATE, {
      namespaceSelector: selector,
      rules: [...configMapRules(), { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }],
    }));
    await core.createNamespace({ body: { metadata: { name: 'on', labels: { webhooks: 'on' } } } });
    await core.createNamespace({ body: { metadata: { name: 'off' } } });
    await core.createNamespacedConfigMap({ namespace: 'on', body: configMap('a') });
    await core.createNamespacedConfigMap({ namespace: 'off', body: configMap('a') });
    // The root-CA publisher's write into the new namespace goes through admission too, as on a real cluster.
    expect(seen.map((r) => `${r.request.resource.resource}:${r.request.namespace ?? ''}/${r.request.name}`)).toEqual(['namespaces:on/on', 'configmaps:on/kube-root-ca.crt', 'configmaps:on/a']);
  });

  it('objectSelector matches the new or the old object\'s labels', async () => {
    const seen = recorder();
    await validatingConfig('v', hook('obj.example.com', URL_VALIDATE, { objectSelector: { matchLabels: { watched: 'true' } }, rules: configMapRules(['CREATE', 'UPDATE']) }));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('plain') });
    const watched = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('watched', { a: '1' }, { watched: 'true' }) });
    // Removing the label: the old object still matches.
    await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'watched', body: { ...watched, metadata: { ...watched.metadata, labels: {} } } });
    expect(seen.map((r) => `${r.request.operation} ${r.request.name}`)).toEqual(['CREATE watched', 'UPDATE watched']);
  });

  it('rules: operations, groups, versions, resources with subresources and wildcards, scope', async () => {
    const seen = recorder();
    const rule = (r: Record<string, unknown>) => ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], ...r });
    await validatingConfig('v',
      hook('status.example.com', URL_VALIDATE, { rules: [rule({ resources: ['pods/status'] })] }),
    );
    const pod = await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    await core.replaceNamespacedPodStatus({ namespace: 'default', name: 'p', body: { ...pod, status: { phase: 'Running' } } });
    expect(seen.map((r) => `${r.request.resource.resource}/${r.request.subResource ?? ''} ${r.request.requestSubResource ?? ''}`)).toEqual(['pods/status status']);
    seen.length = 0;
    await validatingConfig('v', hook('all.example.com', URL_VALIDATE, { rules: [rule({ resources: ['*/*'], scope: 'Cluster' })] }));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    await core.createNamespace({ body: { metadata: { name: 'n' } } });
    expect(seen.map((r) => r.request.resource.resource)).toEqual(['namespaces']);
    seen.length = 0;
    await validatingConfig('v', hook('ns.example.com', URL_VALIDATE, { rules: [rule({ resources: ['*'], scope: 'Namespaced' })] }));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('b') });
    await core.createNamespace({ body: { metadata: { name: 'm' } } });
    await core.patchNamespacedConfigMap({ namespace: 'default', name: 'b', body: [{ op: 'add', path: '/data/c', value: '3' }] }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch));
    // In `default` the test's own writes; in `m` the controllers' (its ServiceAccount and kube-root-ca.crt), not the namespace itself.
    const inDefault = seen.filter((r) => r.request.namespace === 'default');
    expect(inDefault.map((r) => `${r.request.operation} ${r.request.resource.resource}`)).toEqual(['CREATE configmaps', 'UPDATE configmaps']);
    expect(inDefault[1]!.request.options).toEqual({ kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1' });
    expect(seen.filter((r) => r.request.namespace === 'm').map((r) => `${r.request.resource.resource}/${r.request.name}`).sort()).toEqual(['configmaps/kube-root-ca.crt', 'serviceaccounts/default']);
  });

  it('webhooks are not called for webhook configurations and admission policies', async () => {
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => answer(review, false));
    await validatingConfig('v', hook('everything.example.com', URL_VALIDATE, { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), { code: 400 });
    const admission = cluster.kubeConfig.makeApiClient(k8s.AdmissionregistrationV1Api);
    await admission.deleteValidatingWebhookConfiguration({ name: 'v' });
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
  });

  it('matchConditions: a false condition skips the webhook; an error fails closed as Forbidden, or skips it with failurePolicy Ignore', async () => {
    const seen = recorder();
    const conditions = [
      { name: 'not-excluded', expression: "!has(object.metadata.labels) || !('skip' in object.metadata.labels)" },
      { name: 'by-admin', expression: "request.userInfo.username == 'system:admin'" },
    ];
    await validatingConfig('v', hook('cond.example.com', URL_VALIDATE, { matchConditions: conditions }));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('b', { a: '1' }, { skip: 'yes' }) });
    expect(seen.map((r) => r.request.name)).toEqual(['a']);

    await validatingConfig('v', hook('cond.example.com', URL_VALIDATE, { matchConditions: [{ name: 'broken', expression: 'object.data.missing == "x"' }] }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('c') }), {
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps "c" is forbidden: expression \'object.data.missing == "x"\' resulted in error: no such key: missing',
      details: { name: 'c', kind: 'configmaps' },
    });
    await validatingConfig('v', hook('cond.example.com', URL_VALIDATE, { failurePolicy: 'Ignore', matchConditions: [{ name: 'broken', expression: 'object.data.missing == "x"' }] }));
    await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('c') });
    expect(seen.map((r) => r.request.name)).toEqual(['a']);
  });

  it('matchConditions run under the per-call cost limit', async () => {
    recorder();
    const expression = "object.data.s.split(',').all(x, object.data.s.split(',').all(y, x != y || true))";
    await validatingConfig('v', hook('costly.example.com', URL_VALIDATE, { matchConditions: [{ name: 'costly', expression }] }));
    const s = Array.from({ length: 1000 }, (_, i) => String(i)).join(',');
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a', { s }) }), {
      code: 403,
      reason: 'Forbidden',
      message: `configmaps "a" is forbidden: expression '${expression}' resulted in error: operation cancelled: actual cost limit exceeded`,
    });
  });

  it('of several refusing validating webhooks, the first answer is the error', async () => {
    await validatingConfig('v', hook('slow.example.com', 'https://hooks.example.com/slow'), hook('fast.example.com', 'https://hooks.example.com/fast'));
    cluster.serveWebhook('https://hooks.example.com/slow', async (review: Review) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return answer(review, false, { status: { message: 'slow' } });
    });
    cluster.serveWebhook('https://hooks.example.com/fast', (review: Review) => answer(review, false, { status: { message: 'fast' } }));
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }), {
      code: 400,
      message: 'admission webhook "fast.example.com" denied the request: fast',
    });
  });
});

describe('helpers for webhooks written in TypeScript', () => {
  it('admissionWebhook: a function from the AdmissionRequest to a decision, its patch encoded', async () => {
    await mutatingConfig('m', hook('default.example.com', URL_MUTATE));
    await validatingConfig('v', hook('validate.example.com', URL_VALIDATE));
    cluster.serveWebhook(
      URL_MUTATE,
      admissionWebhook((request) => ({ allowed: true, patch: request.object?.data?.owner ? [] : [{ op: 'add', path: '/data/owner', value: 'team-a' }] })),
    );
    cluster.serveWebhook(
      URL_VALIDATE,
      admissionWebhook(async (request) => {
        const owner = request.object?.data.owner;
        return owner === 'nobody' ? { allowed: false, status: { code: 422, reason: 'Invalid', message: 'owner "nobody" is not a team' } } : { allowed: true, warnings: [`owned by ${owner}`] };
      }),
    );
    const capture = captureWarnings();
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') }, capture.options);
    expect(created.data).toEqual({ a: '1', owner: 'team-a' });
    expect(capture.warnings()).toEqual(['owned by team-a']);
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('b', { owner: 'nobody' }) }), {
      code: 422,
      reason: 'Invalid',
      message: 'admission webhook "validate.example.com" denied the request: owner "nobody" is not a team',
    });
  });

  it('nodeWebhook: an Express-style (req, res) listener gets the POST with its path and query, and its answer is the webhook\'s', async () => {
    await validatingConfig('v', hook('node.example.com', URL_VALIDATE));
    const seen: string[] = [];
    const listener = (req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
        const review = JSON.parse(body) as Review;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer(review, review.request.name !== 'denied', { status: { message: 'denied by name' } })));
      });
    };
    const handler = nodeWebhook(listener);
    try {
      cluster.serveWebhook(URL_VALIDATE, handler);
      await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
      await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('denied') }), {
        code: 400,
        message: 'admission webhook "node.example.com" denied the request: denied by name',
      });
      expect(seen).toEqual(['POST /validate?timeout=10s application/json', 'POST /validate?timeout=10s application/json']);
      // A listener that throws is a failing server (500), never a crashed cluster.
      cluster.serveWebhook(URL_VALIDATE, nodeWebhook(() => {
        throw new Error('listener bug');
      }));
      await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('b') }), {
        code: 500,
        message: 'Internal error occurred: failed calling webhook "node.example.com": failed to call webhook: an error on the server ("listener bug") has prevented the request from succeeding',
      });
    } finally {
      await handler.close();
    }
  });
});

describe('over real HTTPS', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });
  const tls = (file: string) => readFileSync(new URL(`./support/webhook-tls/${file}`, import.meta.url));

  it('posts to a clientConfig.url no handler serves, trusting its caBundle, and applies its patch', async () => {
    server = createServer({ key: tls('key.pem'), cert: tls('cert.pem') }, (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as Review;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'add', path: '/data/tls', value: 'yes' }]) })));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await mutatingConfig('m', { ...hook('tls.example.com', ''), clientConfig: { url: `https://127.0.0.1:${port}/mutate`, caBundle: tls('cert.pem').toString('base64') } });
    const created = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    expect(created.data).toEqual({ a: '1', tls: 'yes' });
    // Without the CA bundle the serving certificate is not trusted.
    await mutatingConfig('m', { ...hook('tls.example.com', ''), clientConfig: { url: `https://127.0.0.1:${port}/mutate` } });
    await expectStatus(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('b') }), {
      code: 500,
      message: `Internal error occurred: failed calling webhook "tls.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/mutate?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    });
  });
});

describe('matchPolicy', () => {
  const crd = exampleWidgetsCrd(['v1', 'v2'].map((name) => ({
    name,
    served: true,
    storage: name === 'v1',
    schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string' }, color: { type: 'string' } } } } } },
  })));
  const widgetRule = [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }];

  it('Equivalent: a webhook for v1 also sees a v2 request, converted to v1, and its patch comes back to v2', async () => {
    await cluster.apply([crd]);
    await cluster.settle();
    const reviews: Review[] = [];
    await mutatingConfig('m', hook('widgets.example.com', URL_MUTATE, { rules: widgetRule }));
    cluster.serveWebhook(URL_MUTATE, (review: Review) => {
      reviews.push(review);
      return answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'add', path: '/spec/color', value: 'blue' }]) });
    });
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const created = (await custom.createNamespacedCustomObject({
      group: 'example.com',
      version: 'v2',
      namespace: 'default',
      plural: 'widgets',
      body: { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 'L' } },
    })) as { apiVersion: string; spec: Record<string, string> };
    expect(created.apiVersion).toBe('example.com/v2');
    expect(created.spec).toEqual({ size: 'L', color: 'blue' });
    expect(reviews[0]!.request).toMatchObject({
      kind: { group: 'example.com', version: 'v1', kind: 'Widget' },
      resource: { group: 'example.com', version: 'v1', resource: 'widgets' },
      requestKind: { group: 'example.com', version: 'v2', kind: 'Widget' },
      requestResource: { group: 'example.com', version: 'v2', resource: 'widgets' },
    });
    expect(reviews[0]!.request.object.apiVersion).toBe('example.com/v1');
  });

  it('a custom resource a webhook patched is pruned and defaulted by its schema', async () => {
    const withDefault = structuredClone(crd);
    (withDefault.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties as Record<string, unknown>).color = { type: 'string', default: 'red' };
    await cluster.apply([withDefault]);
    await cluster.settle();
    await mutatingConfig('m', hook('widgets.example.com', URL_MUTATE, { rules: widgetRule }));
    cluster.serveWebhook(URL_MUTATE, (review: Review) =>
      answer(review, true, { patchType: 'JSONPatch', patch: jsonPatch([{ op: 'add', path: '/spec', value: { size: 'XL', unknown: 'dropped' } }]) }),
    );
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const created = (await custom.createNamespacedCustomObject({
      group: 'example.com',
      version: 'v1',
      namespace: 'default',
      plural: 'widgets',
      body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 'L', color: 'green' } },
    })) as { spec: Record<string, string> };
    expect(created.spec).toEqual({ size: 'XL', color: 'red' });
  });

  it('Equivalent for built-ins: an autoscaling/v2 webhook sees an autoscaling/v1 HorizontalPodAutoscaler in v2', async () => {
    const reviews: Review[] = [];
    await validatingConfig('v', hook('hpa.example.com', URL_VALIDATE, { rules: [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'] }] }));
    cluster.serveWebhook(URL_VALIDATE, (review: Review) => {
      reviews.push(review);
      return answer(review, true);
    });
    const autoscaling = cluster.kubeConfig.makeApiClient(k8s.AutoscalingV1Api);
    await autoscaling.createNamespacedHorizontalPodAutoscaler({
      namespace: 'default',
      body: { metadata: { name: 'web' }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 70 } },
    });
    expect(reviews[0]!.request).toMatchObject({
      kind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
      requestKind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
    });
    expect(reviews[0]!.request.object.apiVersion).toBe('autoscaling/v2');
    expect(reviews[0]!.request.object.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
  });

  it('Exact: a webhook for v1 does not see a v2 request', async () => {
    await cluster.apply([crd]);
    await cluster.settle();
    const reviews: Review[] = [];
    await mutatingConfig('m', hook('widgets.example.com', URL_MUTATE, { rules: widgetRule, matchPolicy: 'Exact' }));
    cluster.serveWebhook(URL_MUTATE, (review: Review) => {
      reviews.push(review);
      return answer(review, true);
    });
    const custom = cluster.kubeConfig.makeApiClient(k8s.CustomObjectsApi);
    const body = (version: string, name: string) => ({ apiVersion: `example.com/${version}`, kind: 'Widget', metadata: { name }, spec: { size: 'L' } });
    await custom.createNamespacedCustomObject({ group: 'example.com', version: 'v2', namespace: 'default', plural: 'widgets', body: body('v2', 'a') });
    expect(reviews).toHaveLength(0);
    await custom.createNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'default', plural: 'widgets', body: body('v1', 'b') });
    expect(reviews.map((r) => r.request.name)).toEqual(['b']);
  });
});
