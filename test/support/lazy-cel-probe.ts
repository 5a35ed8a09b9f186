// Child process of test/lazy-loading.test.ts: imports kubefake in a fresh process, records whether
// the CEL engine was loaded by the import, then makes a CRD with a rule (and an invalid rule) the
// very first write of the process, writes a custom resource that breaks the rule, sends a broken
// protobuf body and reads /openapi/v3/api/v1 (the decoder and the tables also load on first use).
// Also: msw, the built-in table printers, the TLS certificate machinery, the workloads control
// plane, PodSecurity's checks, the webhook patch engine and the CRD validation are not loaded by
// the import, and work on first use.
// Prints one JSON line.
import { registerHooks } from 'node:module';

const resolved = new Set<string>();
// The generated OpenAPI definitions (about 1 MB of JSON) load with the OpenAPI documents only.
const openapiTables = new Set<string>();
const msw = new Set<string>();
const printers = new Set<string>();
const tls = new Set<string>();
const re2 = new Set<string>();
const listener = new Set<string>();
const patchEngines = new Set<string>();
const auth = new Set<string>();
const workloads = new Set<string>();
const podSecurityChecks = new Set<string>();
const webhookPatch = new Set<string>();
const crdValidation = new Set<string>();
const admissionValidation = new Set<string>();
const customResourceTypes = new Set<string>();
const cronJobValidation = new Set<string>();
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    if (result.url.includes('/@marcbachmann/cel-js/')) resolved.add(result.url);
    if (result.url.endsWith('/generated/openapi-definitions.generated.ts')) openapiTables.add(result.url);
    if (result.url.includes('/node_modules/msw/') || result.url.includes('/@mswjs/interceptors/')) msw.add(result.url);
    if (result.url.endsWith('/http/table/builtin-printers.ts')) printers.add(result.url);
    if (result.url.includes('/node_modules/re2js/')) re2.add(result.url);
    if (result.url.endsWith('/transport/http-listener.ts')) listener.add(result.url);
    if (result.url.endsWith('/patch/index.ts') || result.url.endsWith('/patch/strategic-merge.ts')) patchEngines.add(result.url);
    if (result.url.includes('/node_modules/pkijs/') || result.url.endsWith('/transport/serving-certs.ts')) tls.add(result.url);
    if (result.url.includes('/src/auth/') || result.url.endsWith('/cluster/cluster-auth.ts')) auth.add(result.url);
    if (result.url.includes('/src/controllers/workloads/') || result.url.endsWith('/cluster/workloads.ts')) workloads.add(result.url);
    if (result.url.endsWith('/pod-security/evaluator.ts') || result.url.endsWith('/pod-security/baseline-checks.ts')) podSecurityChecks.add(result.url);
    if (result.url.endsWith('/admission/webhooks/patch.ts')) webhookPatch.add(result.url);
    if (result.url.includes('/src/apiextensions/validation/')) crdValidation.add(result.url);
    if (result.url.endsWith('/apiextensions/custom-resource-type.ts')) customResourceTypes.add(result.url);
    if (result.url.endsWith('/apis/builtin/batch-validation.ts') || result.url.endsWith('/go/cron.ts')) cronJobValidation.add(result.url);
    if (result.url.endsWith('/admissionregistration-validation.ts') || result.url.endsWith('/admission-policy-validation.ts')) admissionValidation.add(result.url);
    return result;
  },
});

const { createFakeCluster } = await import('../../src/index.ts');
const celAtImport = resolved.size > 0;
const mswAtImport = msw.size > 0;
const printersAtImport = printers.size > 0;
const tlsAtImport = tls.size > 0;
const re2AtImport = re2.size > 0;
const workloadsAtImport = workloads.size > 0;
const podSecurityAtImport = podSecurityChecks.size > 0;
const webhookPatchAtImport = webhookPatch.size > 0;
const crdValidationAtImport = crdValidation.size > 0;
const cluster = await createFakeCluster();
const openapiTablesBeforeRequest = openapiTables.size > 0;
// A plain cluster (its boot namespaces written, so through PodSecurity and the webhooks) loads none of them either.
const afterPlainCluster = [workloads, podSecurityChecks, webhookPatch, crdValidation, admissionValidation, customResourceTypes, cronJobValidation].map((s) => s.size > 0);
// msw loads with the first client that connects (test/lazy-msw.test.ts covers each kind): a raw fetch here.
const rawFetch = await fetch(`${cluster.url}/api/v1/namespaces/default`);
const rawFetchBody = (await rawFetch.json()) as { metadata?: { name?: string } };
// The first Table of the process loads the built-in printers before rendering it.
const table = await cluster.handle(new Request(`${cluster.url}/api/v1/namespaces`, { headers: { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
const tableBody = (await table.json()) as { kind?: string; columnDefinitions?: Array<{ name: string }> };
const post = (path: string, body: unknown) =>
  cluster.handle(new Request(`${cluster.url}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }));
const crd = (rule: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.lazy.example.com' },
  spec: {
    group: 'lazy.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule, message: 'replicas must be below 5' }] } } } },
      },
    ],
  },
});
// The CRD validation loads with the first CRD write: the one below, whose pattern is refused.
const crdValidationBeforeCrd = crdValidation.size > 0;
// RE2 loads (synchronously) with the first pattern to check: here a CRD whose pattern does not compile.
const re2BeforePattern = re2.size > 0;
const patternCrd = crd('self.replicas < 5');
patternCrd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties = { replicas: { type: 'integer' }, color: { type: 'string', pattern: '(' } } as never;
const badPattern = await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', patternCrd);
const badPatternBody = (await badPattern.json()) as { details?: { causes?: Array<{ message: string; field: string }> } };
const badRule = await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('self.replicas == true'));
const badRuleBody = (await badRule.json()) as { details?: { causes?: Array<{ message: string }> } };
const created = await post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd('self.replicas < 5'));
await created.arrayBuffer();
await cluster.settle();
// The custom resource types load with the first CRD the controller serves.
const customResourceTypesServed = customResourceTypes.size > 0;
const rejected = await post('/apis/lazy.example.com/v1/namespaces/default/widgets', { apiVersion: 'lazy.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 7 } });
const rejectedBody = (await rejected.json()) as { message: string };
const accepted = await post('/apis/lazy.example.com/v1/namespaces/default/widgets', { apiVersion: 'lazy.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 3 } });
await accepted.arrayBuffer();
// A broken protobuf body (the magic, then bytes that are no runtime.Unknown): the decoder loads and answers 400.
const protobuf = await cluster.handle(
  new Request(`${cluster.url}/api/v1/namespaces/default/configmaps`, {
    method: 'POST',
    body: Uint8Array.of(0x6b, 0x38, 0x73, 0x00, 0xff, 0xff),
    headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
  }),
);
const protobufBody = (await protobuf.json()) as { message: string };
const openapi = await cluster.handle(new Request(`${cluster.url}/openapi/v3/api/v1`, { headers: { accept: 'application/json' } }));
const openapiBody = (await openapi.json()) as { openapi?: string; paths?: Record<string, unknown> };
// The patch engines load with the first PATCH that needs one (a strategic merge patch here).
const patchBeforePatch = patchEngines.size > 0;
const patched = await cluster.handle(
  new Request(`${cluster.url}/api/v1/namespaces/default`, { method: 'PATCH', body: JSON.stringify({ metadata: { labels: { lazy: 'yes' } } }), headers: { 'content-type': 'application/strategic-merge-patch+json' } }),
);
const patchedBody = (await patched.json()) as { metadata?: { labels?: Record<string, string> } };
// PodSecurity's checks load with the first pod evaluated against a policy: a privileged pod in a
// namespace that enforces restricted is refused (a pod in a privileged namespace needs no checks).
const psaPost = (ns: string) => post(`/api/v1/namespaces/${ns}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox', securityContext: { privileged: true } }] } });
const privilegedPod = await psaPost('default');
await privilegedPod.arrayBuffer();
const podSecurityBeforeCheck = podSecurityChecks.size > 0;
await (await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'strict', labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } })).arrayBuffer();
const refusedPod = await psaPost('strict');
const refusedPodBody = (await refusedPod.json()) as { message: string };
// The JSON patch engine of mutating webhooks loads with the first webhook answer carrying a patch;
// the webhook configurations' defaulting and validation with the first configuration written.
const admissionValidationBeforeConfig = admissionValidation.size > 0;
const webhookConfig = await (
  await post('/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'm' },
    webhooks: [{ name: 'label.example.com', clientConfig: { url: 'https://hooks.example.com/mutate' }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] }],
  })
).json() as { webhooks?: Array<{ failurePolicy?: string }> };
cluster.serveWebhook('https://hooks.example.com/mutate', (review: { apiVersion: string; kind: string; request: { uid: string } }) => ({
  apiVersion: review.apiVersion,
  kind: review.kind,
  response: { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }])).toString('base64') },
}));
const webhookPatchBeforeAnswer = webhookPatch.size > 0;
const mutated = await post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm' }, data: { a: '1' } });
const mutatedBody = (await mutated.json()) as { metadata?: { labels?: Record<string, string> } };
// The CronJob validation (and its schedule parser) loads with the first CronJob write, which it refuses.
const badCronJob = await post('/apis/batch/v1/namespaces/default/cronjobs', {
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name: 'cj' },
  spec: { schedule: 'not a schedule', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
});
const badCronJobBody = (await badCronJob.json()) as { details?: { causes?: Array<{ field: string }> } };
// The X.509 machinery loads with the first TLS listener, which answers over HTTPS with its CA.
const tlsBeforeListen = tls.size > 0;
const listenerBeforeListen = listener.size > 0;
const served = await cluster.listen({ tls: true });
const { request } = await import('node:https');
const tlsAnswer = await new Promise<[number | undefined, string]>((resolve, reject) => {
  const req = request(`${served.url}/api/v1/namespaces/default`, { ca: served.caCert, headers: { authorization: `Bearer ${served.token}` } }, (res) => {
    let text = '';
    res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).on('end', () => resolve([res.statusCode, (JSON.parse(text) as { metadata: { name: string } }).metadata.name]));
  });
  req.on('error', reject).end();
});
await cluster.close();
// Authentication and RBAC load with the first `auth: true` cluster, not with the import or a plain one.
const authBeforeAuthCluster = auth.size > 0;
const authCluster = await createFakeCluster({ auth: true });
const anonymous = await authCluster.handle(new Request(`${authCluster.url}/api/v1/namespaces`));
await authCluster.close();
// The simulated control plane loads with the first `workloads: true` cluster, which registers its node.
const workloadsBeforeWorkloadsCluster = workloads.size > 0;
const workloadsCluster = await createFakeCluster({ workloads: true });
const nodes = (await (await workloadsCluster.handle(new Request(`${workloadsCluster.url}/api/v1/nodes`))).json()) as { items: Array<{ metadata: { name: string } }> };
await workloadsCluster.close();
console.log(
  JSON.stringify({
    celAtImport,
    mswAtImport,
    printersAtImport,
    tls: [tlsAtImport, tlsBeforeListen, tls.size > 0],
    listener: [listenerBeforeListen, listener.size > 0],
    patch: [patchBeforePatch, patchEngines.size > 0, patched.status, patchedBody.metadata?.labels?.lazy],
    tlsAnswer,
    auth: [authBeforeAuthCluster, auth.size > 0, anonymous.status],
    workloads: [workloadsAtImport, afterPlainCluster[0], workloadsBeforeWorkloadsCluster, workloads.size > 0, nodes.items.map((n) => n.metadata.name)],
    podSecurity: [podSecurityAtImport, afterPlainCluster[1], privilegedPod.status, podSecurityBeforeCheck, podSecurityChecks.size > 0, refusedPod.status, refusedPodBody.message],
    webhookPatch: [webhookPatchAtImport, afterPlainCluster[2], webhookPatchBeforeAnswer, webhookPatch.size > 0, mutated.status, mutatedBody.metadata?.labels],
    admissionValidation: [afterPlainCluster[4], admissionValidationBeforeConfig, admissionValidation.size > 0, webhookConfig.webhooks?.[0]?.failurePolicy],
    customResourceTypes: [afterPlainCluster[5], customResourceTypesServed],
    cronJobValidation: [afterPlainCluster[6], cronJobValidation.size > 0, badCronJob.status, badCronJobBody.details?.causes?.map((c) => c.field)],
    crdValidation: [crdValidationAtImport, afterPlainCluster[3], crdValidationBeforeCrd, crdValidation.size > 0],
    re2: [re2AtImport, re2BeforePattern, re2.size > 0],
    badPattern: [badPattern.status, badPatternBody.details?.causes?.map((c) => [c.field, c.message])],
    rawFetch: [rawFetch.status, rawFetchBody.metadata?.name],
    table: [table.status, tableBody.kind, tableBody.columnDefinitions?.map((c) => c.name)],
    printersAfter: printers.size > 0,
    celAfter: resolved.size > 0,
    badRule: [badRule.status, badRuleBody.details?.causes?.[0]?.message ?? ''],
    created: created.status,
    rejected: [rejected.status, rejectedBody.message],
    accepted: accepted.status,
    protobuf: [protobuf.status, protobufBody.message],
    openapiTables: [openapiTablesBeforeRequest, openapiTables.size > 0],
    openapi: [openapi.status, openapiBody.openapi, Object.hasOwn(openapiBody.paths ?? {}, '/api/v1/namespaces/{namespace}/configmaps')],
  }),
);
process.exit(0);
