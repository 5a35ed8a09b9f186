// `kubefake serve`: a fake apiserver on loopback for kubectl and clients in any language.
import { parseArgs } from 'node:util';
import type { FakeCluster } from './cluster/fake-cluster.ts';
import type { KubeObject } from './apis/object.ts';
import { isLoopbackHost } from './transport/http-listener.ts';
import { writePrivateFile } from './util/private-file.ts';

const USAGE = `Usage: kubefake serve [--port N] [--host ADDR] [--tls] [--auth] [--manifests PATH ...] [--kubeconfig FILE] [--workloads [--nodes N]]

  --port        port to listen on (default: a free port)
  --host        address to bind (default: 127.0.0.1); anything but loopback needs --tls
  --tls         serve HTTPS with a generated CA and require the bearer token in the kubeconfig
  --auth        authenticate and authorize with RBAC (docs/auth.md), over HTTPS (implies --tls);
                the kubeconfig is the administrator's
  --manifests   YAML/JSON files or directories applied at start (repeatable)
  --kubeconfig  where to write the kubeconfig, mode 0600 (default: ./kubefake.kubeconfig)
  --workloads   run a simulated control plane: Ready nodes, a scheduler, a kubelet stand-in and the
                workload controllers (Deployments get ReplicaSets and Pods that become Ready)
  --nodes       with --workloads: how many nodes to register (default: 1)

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
      auth: { type: 'boolean', default: false },
      manifests: { type: 'string', multiple: true, default: [] },
      kubeconfig: { type: 'string', default: 'kubefake.kubeconfig' },
      workloads: { type: 'boolean', default: false },
      nodes: { type: 'string' },
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
  const nodes = values.nodes === undefined ? undefined : Number(values.nodes);
  if (nodes !== undefined && (!values.workloads || !Number.isInteger(nodes) || nodes < 0)) {
    console.error(values.workloads ? `kubefake: --nodes must be a whole number of nodes, got ${values.nodes}` : 'kubefake: --nodes needs --workloads');
    return 2;
  }
  if (!isLoopbackHost(values.host)) {
    if (!values.tls && !values.auth) {
      console.error(`kubefake: refusing to serve plain http on ${values.host}: anyone who reaches that address could read and change the cluster. Add --tls (HTTPS and a bearer token), or bind 127.0.0.1.`);
      return 2;
    }
    // With --auth a request without a token is served as system:anonymous (RBAC decides), and the
    // kubeconfig's token is the administrator's; without it the token is the only gate.
    const access = values.auth
      ? `Requests are authorized with RBAC; ${values.kubeconfig} holds the administrator's token (system:masters): keep that file private.`
      : `Every request needs the bearer token in ${values.kubeconfig}; keep that file private. This is a fake cluster for tests: it has no authorization beyond that token.`;
    console.error(`kubefake: WARNING: serving on ${values.host}, reachable from other machines. ${access}`);
  }
  // The cluster (most of kubefake) loads once the arguments are known to be good: a usage error
  // answers at once.
  const { BOOT_NAMESPACES, createInProcessCluster } = await import('./cluster/fake-cluster.ts');
  let cluster: FakeCluster | undefined;
  try {
    cluster = await createInProcessCluster({ auth: values.auth, ...(values.workloads ? { workloads: true, nodes } : {}) });
    // Paths, so that an error names the file it is in.
    const loaded = await cluster.apply(values.manifests);
    const { url, kubeconfig } = await cluster.listen({ port, host: values.host, tls: values.tls || values.auth });
    await writePrivateFile(values.kubeconfig, kubeconfig);
    console.log(banner({ url, kubeconfig: values.kubeconfig, manifests: values.manifests, loaded, workloads: values.workloads ? (nodes ?? 1) : undefined, bootNamespaces: BOOT_NAMESPACES }));
  } catch (err) {
    await cluster?.close();
    console.error(errorLine(err));
    return 1;
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await cluster.close();
  console.log('kubefake stopped');
  return 0;
}

/** One line for stderr: library errors already start with `kubefake: `; add it only where missing. */
export function errorLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.startsWith('kubefake: ') ? message : `kubefake: ${message}`;
}

/** `kind.group/name` as kubectl prints it, with the namespace of a namespaced object. */
function describeObject(obj: KubeObject): string {
  const group = (obj.apiVersion ?? '').includes('/') ? `.${obj.apiVersion!.split('/')[0]}` : '';
  const ns = obj.metadata?.namespace ? ` (namespace ${obj.metadata.namespace})` : '';
  return `${(obj.kind ?? '').toLowerCase()}${group}/${obj.metadata?.name ?? ''}${ns}`;
}

/**
 * What the server holds and does not do, printed at start: the objects it loaded (or that it
 * started empty), how to point kubectl at it, and that no kubelet or workload controller runs.
 */
function banner(o: { url: string; kubeconfig: string; manifests: string[]; loaded: KubeObject[]; workloads?: number; bootNamespaces: readonly string[] }): string {
  const lines = [`kubefake is serving Kubernetes v1.36 at ${o.url}`];
  if (o.loaded.length === 0) {
    lines.push(`Started empty (namespaces ${o.bootNamespaces.join(', ')}); load files with --manifests PATH.`);
  } else {
    lines.push(`Loaded ${o.loaded.length} object${o.loaded.length === 1 ? '' : 's'} from ${o.manifests.join(', ')}:`);
    for (const obj of o.loaded) lines.push(`  ${describeObject(obj)}`);
    lines.push('To start empty, run it without --manifests.');
  }
  if (o.workloads === undefined) {
    lines.push(
      'It is an API server only: no kubelet (Pods are stored, never run), no scheduler, no workload',
      'controllers (a Deployment gets no ReplicaSet or Pods); it runs the loops every cluster runs:',
      'garbage collection, namespace deletion, CRD establishment, ServiceAccounts and root CA ConfigMaps,',
      'quota usage, ClusterRole aggregation, PVC/PV protection.',
    );
  } else {
    lines.push(
      `With workloads: ${o.workloads} Ready node${o.workloads === 1 ? '' : 's'}, a scheduler, a kubelet stand-in (Pods become Running and`,
      'Ready; containers run no code), the workload controllers (Deployment, ReplicaSet, StatefulSet,',
      'DaemonSet, Job, CronJob ...) and volume binding with a default StorageClass, "standard", whose',
      'volumes are provisioned; besides garbage collection, namespace deletion and CRD establishment.',
    );
  }
  lines.push(
    `Point kubectl at it:`,
    `  export KUBECONFIG=${o.kubeconfig}`,
    `  kubectl get namespaces`,
    'Stop it with Ctrl-C.',
  );
  return lines.join('\n');
}
