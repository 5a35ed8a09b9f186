// An example controller built on client-node's informer: for every CronTab it keeps a Deployment
// (owned by the CronTab, so the garbage collector removes it with it) and records that in the
// CronTab's status, retrying a status write that loses an optimistic-concurrency race (409).
import * as k8s from '@kubernetes/client-node';

export interface CronTab extends k8s.KubernetesObject {
  spec: { image: string; replicas?: number; cronSpec?: string };
  status?: { deployment?: string; observedGeneration?: number };
}

const GROUP = 'stable.example.com';
const VERSION = 'v1';
const PLURAL = 'crontabs';
const STATUS_ATTEMPTS = 5;

export interface CronTabController {
  stop(): Promise<void>;
}

/** Starts watching CronTabs in `namespace` and reconciling each one as it is added or changed. */
export async function startCronTabController(kubeConfig: k8s.KubeConfig, namespace = 'default'): Promise<CronTabController> {
  const custom = kubeConfig.makeApiClient(k8s.CustomObjectsApi);
  const apps = kubeConfig.makeApiClient(k8s.AppsV1Api);
  const informer = k8s.makeInformer<CronTab>(
    kubeConfig,
    `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${PLURAL}`,
    () => custom.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL }) as Promise<k8s.KubernetesListObject<CronTab>>,
  );
  // One reconcile at a time, in event order: enough for an example.
  let queue = Promise.resolve();
  const enqueue = (crontab: CronTab) => {
    queue = queue.then(() => reconcile(crontab)).catch((err: unknown) => console.error(`crontab ${crontab.metadata?.name}: ${String(err)}`));
  };
  informer.on('add', enqueue);
  informer.on('update', enqueue);
  await informer.start();

  async function reconcile(crontab: CronTab): Promise<void> {
    const name = crontab.metadata!.name!;
    const generation = crontab.metadata!.generation;
    // Status writes wake the informer too: nothing to do once this generation is recorded.
    if (crontab.status?.observedGeneration === generation) return;
    await ensureDeployment(crontab);
    await writeStatus(name, { deployment: name, observedGeneration: generation });
  }

  async function ensureDeployment(crontab: CronTab): Promise<void> {
    const name = crontab.metadata!.name!;
    const desired = deploymentFor(crontab);
    try {
      await apps.createNamespacedDeployment({ namespace, body: desired });
    } catch (err) {
      if (!(err instanceof k8s.ApiException && err.code === 409)) throw err;
      const current = await apps.readNamespacedDeployment({ name, namespace });
      current.spec = desired.spec;
      await apps.replaceNamespacedDeployment({ name, namespace, body: current });
    }
  }

  /** Read-modify-write of the status subresource, retried when another writer got there first. */
  async function writeStatus(name: string, status: CronTab['status']): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const current = (await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL, name })) as CronTab;
      try {
        await custom.replaceNamespacedCustomObjectStatus({ group: GROUP, version: VERSION, namespace, plural: PLURAL, name, body: { ...current, status } });
        return;
      } catch (err) {
        if (err instanceof k8s.ApiException && err.code === 409 && attempt < STATUS_ATTEMPTS) continue;
        throw err;
      }
    }
  }

  return {
    async stop() {
      await informer.stop();
      await queue;
    },
  };
}

/** The Deployment a CronTab asks for, owned by it. */
export function deploymentFor(crontab: CronTab): k8s.V1Deployment {
  const name = crontab.metadata!.name!;
  const labels = { 'app.kubernetes.io/name': 'crontab', 'app.kubernetes.io/instance': name };
  return {
    metadata: {
      name,
      labels,
      ownerReferences: [{ apiVersion: `${GROUP}/${VERSION}`, kind: 'CronTab', name, uid: crontab.metadata!.uid!, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      replicas: crontab.spec.replicas ?? 1,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'cron', image: crontab.spec.image }] } },
    },
  };
}
