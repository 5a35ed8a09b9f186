// Which test files the msw project of vitest.config.ts leaves out. The two projects differ only in
// the transport `cluster.kubeConfig` and `cluster.kubeConfigFor()` use (KUBEFAKE_TRANSPORT): every
// other way in (kubectl or any client over listen(), `kubefake serve`, raw fetch of `cluster.url`,
// which msw intercepts on both projects, `cluster.handle()`, the harness reads) is the same on
// both. A file none of whose clients goes through those two would only run twice for nothing.
// test/msw-project.test.ts checks every file listed here against DEPENDS_ON_TRANSPORT, unless every
// cluster it makes names its transport (namesEveryTransport).

/** Text that means a file (or a helper it calls) sends requests through `cluster.kubeConfig`. */
export const DEPENDS_ON_TRANSPORT = [
  /kubeConfig/, // cluster.kubeConfig, cluster.kubeConfigFor(), a fixture's or helper's kubeConfig
  /\.core\b/, // useKubectlCluster()'s CoreV1Api, made from cluster.kubeConfig
  /installWidgets/, // test/support/schema-crd.ts: a CustomObjectsApi from cluster.kubeConfig
  /runScenario|defineFixtureTests/, // the conformance runner: client-node on cluster.kubeConfig
];

/** Helpers and fixtures that make a cluster on the project's transport, out of sight of a file's own createFakeCluster calls. */
const CLUSTER_MAKERS = /useKubectlCluster|kubefake\/vitest|src\/vitest\.ts|support\/validation\.ts|runScenario|defineFixtureTests/;

/**
 * Whether every cluster a file makes names its transport (`createFakeCluster({ transport … })`) and
 * none comes from a helper: then KUBEFAKE_TRANSPORT changes nothing in it, whatever it sends
 * through cluster.kubeConfig.
 */
export function namesEveryTransport(text: string): boolean {
  const calls = text.match(/createFakeCluster\(/g)?.length ?? 0;
  const named = text.match(/createFakeCluster\(\{ transport\b/g)?.length ?? 0;
  return calls > 0 && named === calls && !CLUSTER_MAKERS.test(text);
}

/** Files the msw project does not run, each with what its clients are. Paths from the repository root. */
export const TRANSPORT_INDEPENDENT_FILES: Readonly<Record<string, string>> = {
  // No cluster at all, or only the CEL library.
  'test/cel.test.ts': 'the CEL library',
  'test/cel-engine-isolation.test.ts': 'the CEL engine in a worker thread',
  'test/cel-equality.test.ts': 'the CEL library',
  'test/cel-spec.test.ts': 'the CEL library',
  'test/cel-timestamps-strings.test.ts': 'the CEL library',
  'test/cel-values.test.ts': 'the CEL library',
  'test/cel-cost-estimation.test.ts': 'the CEL library',
  'docs/examples/cel.test.ts': 'the CEL library',
  'test/go-format.test.ts': 'Go formatting helpers',
  'test/architecture.test.ts': 'the import graph of src/',
  'test/builtin-catalogue-generator.test.ts': 'a generator script',
  'test/printer-docs-generator.test.ts': 'a generator script',
  'test/docs.test.ts': 'the documentation pages',
  'test/node-support.test.ts': 'the Node.js version check, in child processes',
  'test/lazy-loading.test.ts': 'a child process: raw fetch of cluster.url, handle() and listen()',
  'test/lazy-msw.test.ts': 'child processes on the default transport (KUBEFAKE_TRANSPORT cleared), whatever the project',
  // `kubefake serve` child processes, reached by client-node or kubectl over HTTP.
  'test/cli.test.ts': 'kubefake serve processes',
  'test/admission-webhooks-serve.test.ts': 'a kubefake serve process',
  'test/readme-quickstart.test.ts': 'a kubefake serve process and kubectl',
  // kubectl or other clients over cluster.listen().
  'test/admission-policy-kubectl.test.ts': 'kubectl over listen()',
  'test/builtin-catalogue-kubectl.test.ts': 'kubectl over listen()',
  'test/pod-security-kubectl.test.ts': 'kubectl over listen()',
  'test/system-objects-kubectl.test.ts': 'kubectl over listen()',
  'test/admission-printers.test.ts': 'raw HTTP and kubectl over listen()',
  'test/hardening-listener.test.ts': 'raw HTTP, client-node and kubectl over listen()',
  'test/python-client.test.ts': 'the Python client over listen()',
  'test/python-workloads.test.ts': 'the Python client over listen()',
  'docs/examples/serve-in-process.test.ts': 'fetch over listen(), and handle()',
  // cluster.handle(), raw fetch of cluster.url, or the harness alone.
  'test/builtin-discovery.test.ts': 'raw fetch of cluster.url',
  'test/decode-hardening-causes.test.ts': 'raw fetch of cluster.url',
  'test/patch-field-validation.test.ts': 'cluster.handle()',
  'docs/examples/deterministic.test.ts': 'apply() and the clock',
  'docs/examples/vitest-fixture.test.ts': 'apply() and the harness reads',
  // Every cluster names its transport.
  'test/transport-named.test.ts': 'clusters on the dispatcher, msw or both side by side, each named in createFakeCluster()',
};
