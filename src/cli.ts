// `kubefake serve`: a fake apiserver on loopback for kubectl and clients in any language.
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createFakeCluster } from './cluster/fake-cluster.ts';
import { readManifestPaths } from './cluster/manifest-files.ts';

const USAGE = `Usage: kubefake serve [--port N] [--host ADDR] [--manifests PATH ...] [--kubeconfig FILE]

  --port        port to listen on (default: a free port)
  --host        address to bind (default: 127.0.0.1)
  --manifests   YAML/JSON files or directories applied at start (repeatable)
  --kubeconfig  where to write the kubeconfig (default: ./kubefake.kubeconfig)`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'serve') {
    console.error(USAGE);
    return command === '--help' || command === '-h' ? 0 : 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      manifests: { type: 'string', multiple: true, default: [] },
      kubeconfig: { type: 'string', default: 'kubefake.kubeconfig' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`kubefake: --port must be a port number, got ${values.port}`);
    return 2;
  }
  const cluster = await createFakeCluster({ manifests: await readManifestPaths(values.manifests) });
  const { url, kubeconfig } = await cluster.listen({ port, host: values.host });
  await writeFile(values.kubeconfig, kubeconfig);
  console.log(`kubefake is serving Kubernetes v1.36 at ${url}`);
  console.log(`Point kubectl at it:\n  export KUBECONFIG=${values.kubeconfig}\n  kubectl get namespaces`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await cluster.close();
  console.log('kubefake stopped');
  return 0;
}
