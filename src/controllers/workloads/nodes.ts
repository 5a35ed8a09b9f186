// The Nodes a workloads cluster starts with: what a kubelet registers (labels, its Lease in
// kube-node-lease) and then reports as its status (conditions, capacity/allocatable, addresses, nodeInfo, daemonEndpoints),
// with the texts of pkg/kubelet/nodestatus/setters.go, and what kube-controller-manager adds (podCIDR,
// the TTL annotation). Every node is alike and Ready.
import type { KubeObject } from '../../apis/object.ts';
import { formatMicroTimestamp, formatTimestamp } from '../../go/time.ts';
import type { ControllerContext } from '../context.ts';
import { deepEqual } from '../../util/deep-equal.ts';
import { CONTROLLER_MANAGER, KUBELET_MANAGER } from './component-managers.ts';
import { patchStatusAs } from './controller-support.ts';

/** The name of the i-th node (1-based). */
export const nodeName = (i: number): string => `kubefake-node-${i}`;

/** What each node offers: 8 CPUs, 32 GiB, 110 pods (the kubelet's default maxPods). */
export const NODE_CAPACITY = { cpu: '8', 'ephemeral-storage': '102625208Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '32877324Ki', pods: '110' };

/** The pod address range of the i-th node; pod IPs are taken from it in order. */
export const podCidrOf = (i: number): string => `10.244.${i - 1}.0/24`;
export const nodeAddressOf = (i: number): string => `172.18.0.${i + 1}`;

/** A deterministic hex string of the given length from a seed text (machine ids, container ids). */
export function hexId(seed: string, length: number): string {
  let out = '';
  let h = 0x811c9dc5;
  for (let round = 0; out.length < length; round++) {
    const text = `${seed}#${round}`;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, length);
}

const uuidFrom = (seed: string): string => {
  const h = hexId(seed, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

function nodeObject(i: number): KubeObject {
  const name = nodeName(i);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
      },
      // What the kubelet annotates at registration (initialNode, with controller attach/detach on).
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: { providerID: `kubefake://${name}` },
  };
}

/** The status a Ready kubelet posts (setters.go: MachineInfo, NodeAddress, ReadyCondition and the pressure conditions). */
function nodeStatus(i: number, kubeletVersion: string, now: Date): Record<string, unknown> {
  const at = formatTimestamp(now);
  const condition = (type: string, status: string, reason: string, message: string) => ({ type, status, lastHeartbeatTime: at, lastTransitionTime: at, reason, message });
  return {
    capacity: { ...NODE_CAPACITY },
    allocatable: { ...NODE_CAPACITY },
    conditions: [
      condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      condition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ],
    addresses: [
      { type: 'InternalIP', address: nodeAddressOf(i) },
      { type: 'Hostname', address: nodeName(i) },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: hexId(`machine-${i}`, 32),
      systemUUID: uuidFrom(`system-${i}`),
      bootID: uuidFrom(`boot-${i}`),
      kernelVersion: '6.8.0-kubefake',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      containerRuntimeVersion: 'containerd://2.1.4',
      kubeletVersion,
      // Deprecated and no longer set by kubelets, but not omitempty: encoding/json writes "".
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: 'amd64',
      swap: {},
    },
    runtimeHandlers: [{ name: 'runc', features: { recursiveReadOnlyMounts: true, userNamespaces: true } }, { name: '', features: { recursiveReadOnlyMounts: true, userNamespaces: true } }],
    features: { supplementalGroupsPolicy: true },
  };
}

const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** The kubelet's NodeLeaseDurationSeconds default. */
const NODE_LEASE_DURATION_SECONDS = 40;

/**
 * The node's heartbeat Lease, as the kubelet's lease controller creates it
 * (component-helpers/apimachinery/lease/controller.go newLease, with the kubelet's post-process
 * setting the Node as owner). kubefake's nodes do not renew it: nothing here judges a node by it.
 */
function nodeLease(node: KubeObject, now: Date): KubeObject {
  const name = node.metadata!.name!;
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name, namespace: NODE_LEASE_NAMESPACE, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata!.uid! }] },
    spec: { holderIdentity: name, leaseDurationSeconds: NODE_LEASE_DURATION_SECONDS, renewTime: formatMicroTimestamp(now) },
  };
}

/** Registers `count` Ready nodes through the registry (create, then the kubelet's status, then the controller manager's patch), as kubelets do at startup. */
export async function registerNodes(ctx: ControllerContext, count: number, kubeletVersion: string): Promise<void> {
  const type = ctx.catalog.find('', 'v1', 'nodes')!;
  const registry = ctx.registryFor(type);
  const leases = ctx.registryFor(ctx.catalog.find('coordination.k8s.io', 'v1', 'leases')!);
  for (let i = 1; i <= count; i++) {
    const { object: node } = await registry.create(undefined, nodeObject(i), { fieldManager: KUBELET_MANAGER });
    await leases.create(NODE_LEASE_NAMESPACE, nodeLease(node, ctx.clock.now()), { fieldManager: KUBELET_MANAGER });
    const status = nodeStatus(i, kubeletVersion, ctx.clock.now());
    // The kubelet's first status sync: nodeutil.PatchNodeStatus, a patch of nodes/status.
    patchStatusAs(ctx, type, KUBELET_MANAGER, undefined, nodeName(i), (node) => {
      if (deepEqual(node.status, status)) return false;
      node.status = status;
      return true;
    });
    // kube-controller-manager's node controllers, as one patch of the node: the TTL controller's
    // annotation (pkg/controller/ttl), nodeipam's pod range (PatchNodeCIDRs), and the node
    // lifecycle controller taking off the not-ready taint TaintNodesByCondition put on at create
    // once the node reports Ready (pkg/controller/nodelifecycle: doNoScheduleTaintingPass, RemoveTaintOffNode).
    registry.systemUpdate(
      undefined,
      nodeName(i),
      (node) => {
        const before = structuredClone([node.metadata?.annotations, node.spec]);
        node.metadata!.annotations = { ...node.metadata!.annotations, 'node.alpha.kubernetes.io/ttl': '0' };
        const spec = (node.spec ?? {}) as { podCIDR?: string; podCIDRs?: string[]; taints?: { key?: string; effect?: string }[] };
        spec.podCIDR ??= podCidrOf(i);
        spec.podCIDRs ??= [spec.podCIDR];
        const kept = (spec.taints ?? []).filter((t) => !(t.key === 'node.kubernetes.io/not-ready' && t.effect === 'NoSchedule'));
        if (kept.length) spec.taints = kept;
        else delete spec.taints;
        node.spec = spec;
        return !deepEqual([node.metadata?.annotations, node.spec], before);
      },
      undefined,
      CONTROLLER_MANAGER,
    );
  }
}
