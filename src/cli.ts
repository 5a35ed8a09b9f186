// `kubefake serve`: a fake apiserver on loopback for kubectl and clients in any language.
import { parseArgs } from 'node:util';
import { createFakeCluster } from './cluster/fake-cluster.ts';
import { readManifestPaths } from './cluster/manifest-files.ts';
import { isLoopbackHost } from './transport/http-listener.ts';
import { writePrivateFile } from './util/private-file.ts';

const USAGE = `Usage: kubefake serve [--port N] [--host ADDR] [--tls] [--manifests PATH ...] [--kubeconfig FILE]

  --port        port to listen on (default: a free port)
  --host        address to bind (default: 127.0.0.1); anything but loopback needs --tls
  --tls         serve HTTPS with a generated CA and require the bearer token in the kubeconfig
  --manifests   YAML/JSON files or directories applied at start (repeatable)
  --kubeconfig  where to write the kubeconfig, mode 0600 (default: ./kubefake.kubeconfig)

See SECURITY.md for what the listener exposes.`;

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
      tls: { type: 'boolean', default: false },
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
  if (!isLoopbackHost(values.host)) {
    if (!values.tls) {
      console.error(`kubefake: refusing to serve plain http on ${values.host}: anyone who reaches that address could read and change the cluster. Add --tls (HTTPS and a bearer token), or bind 127.0.0.1.`);
      return 2;
    }
    console.error(
      `kubefake: WARNING: serving on ${values.host}, reachable from other machines. Every request needs the bearer token in ${values.kubeconfig}; keep that file private. This is a fake cluster for tests: it has no authorization beyond that token.`,
    );
  }
  const cluster = await createFakeCluster({ manifests: await readManifestPaths(values.manifests) });
  const { url, kubeconfig } = await cluster.listen({ port, host: values.host, tls: values.tls });
  try {
    await writePrivateFile(values.kubeconfig, kubeconfig);
  } catch (err) {
    await cluster.close();
    console.error(`kubefake: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
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
