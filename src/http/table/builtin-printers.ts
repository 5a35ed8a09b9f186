// The server-side printers of built-in kinds (kubernetes pkg/printers/internalversion/printers.go,
// run by the apiserver with GenerateOptions{Wide: true}, so priority-1 cells are always there).
// Kinds without an entry get the default table (Name, Created At), which is also what the real
// server does for kinds it has no printer for (roles, clusterroles, CRDs, ...). Printers of the
// batch, event, claim, RBAC, admission and componentstatus kinds live in their own modules.
import type { KubeObject } from '../../apis/object.ts';
import { cronJobs, jobs } from './batch-printers.ts';
import { componentStatuses } from './component-status-printer.ts';
import { ADMISSION_PRINTERS } from './admission-printers.ts';
import { ingressClasses, podDisruptionBudgets, podTemplates } from './more-printers.ts';
import { persistentVolumes, priorityClasses, storageClasses } from './storage-scheduling-printers.ts';
import { csiDrivers, csiNodes, csiStorageCapacities, endpointSlices, runtimeClasses } from './storage-discovery-printers.ts';
import { horizontalPodAutoscalers, resourceQuotas, scales } from './autoscaling-quota-printers.ts';
import { certificateSigningRequests } from './certificate-printer.ts';
import { flowSchemas, priorityLevelConfigurations } from './flowcontrol-printers.ts';
import { controllerRevisions, ingresses, networkPolicies, replicationControllers, volumeAttachments } from './workload-network-printers.ts';
import { coreEvents, eventsV1Events } from './event-printer.ts';
import { formatLabelSelector } from '../../selectors/format-label-selector.ts';
import { arr, byteCompare, containerCells, formatLabels, num, obj, str } from './format.ts';
import { persistentVolumeClaims } from './claim-printer.ts';
import { POD_COLUMNS, printPod } from './pod-printer.ts';
import { AGE, ageOf, CONTAINERS, count, IMAGES, NAME, nameOf, row, templateSpec, type BuiltinPrinter } from './printer-parts.ts';
import { clusterRoleBindings, roleBindings } from './rbac-printers.ts';
import { DOC } from './swagger-docs.ts';
import { column } from './table-types.ts';

const deployments: BuiltinPrinter = {
  columns: [
    NAME,
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', DOC.deploymentStatusUpdatedReplicas),
    column('Available', 'string', DOC.deploymentStatusAvailableReplicas),
    AGE,
    CONTAINERS,
    IMAGES,
    column('Selector', 'string', DOC.deploymentSpecSelector, { priority: 1 }),
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    // Decoding defaults spec.replicas to 1, so an absent value reads as 1.
    const desired = typeof spec.replicas === 'number' ? spec.replicas : 1;
    const [names, images] = containerCells(templateSpec(o));
    return row(nameOf(o), `${num(status.readyReplicas)}/${desired}`, num(status.updatedReplicas), num(status.availableReplicas), ageOf(o, now), names, images, formatLabelSelector(spec.selector));
  },
};

const replicaSets: BuiltinPrinter = {
  columns: [
    NAME,
    column('Desired', 'integer', DOC.replicaSetSpecReplicas),
    column('Current', 'integer', DOC.replicaSetStatusReplicas),
    column('Ready', 'integer', DOC.replicaSetStatusReadyReplicas),
    AGE,
    CONTAINERS,
    IMAGES,
    column('Selector', 'string', DOC.replicaSetSpecSelector, { priority: 1 }),
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const desired = typeof spec.replicas === 'number' ? spec.replicas : 1;
    const [names, images] = containerCells(templateSpec(o));
    return row(nameOf(o), desired, num(status.replicas), num(status.readyReplicas), ageOf(o, now), names, images, formatLabelSelector(spec.selector));
  },
};

const statefulSets: BuiltinPrinter = {
  columns: [NAME, column('Ready', 'string', 'Number of the pod with ready state'), AGE, CONTAINERS, IMAGES],
  print(o, now) {
    const desired = typeof obj(o.spec).replicas === 'number' ? num(obj(o.spec).replicas) : 1;
    const [names, images] = containerCells(templateSpec(o));
    return row(nameOf(o), `${num(obj(o.status).readyReplicas)}/${desired}`, ageOf(o, now), names, images);
  },
};

const daemonSets: BuiltinPrinter = {
  columns: [
    NAME,
    column('Desired', 'integer', DOC.daemonSetStatusDesired),
    column('Current', 'integer', DOC.daemonSetStatusCurrent),
    column('Ready', 'integer', DOC.daemonSetStatusReady),
    column('Up-to-date', 'integer', DOC.daemonSetStatusUpdated),
    column('Available', 'integer', DOC.daemonSetStatusAvailable),
    column('Node Selector', 'string', DOC.podSpecNodeSelector),
    AGE,
    CONTAINERS,
    IMAGES,
    column('Selector', 'string', DOC.daemonSetSpecSelector, { priority: 1 }),
  ],
  print(o, now) {
    const s = obj(o.status);
    const [names, images] = containerCells(templateSpec(o));
    return row(
      nameOf(o),
      num(s.desiredNumberScheduled),
      num(s.currentNumberScheduled),
      num(s.numberReady),
      num(s.updatedNumberScheduled),
      num(s.numberAvailable),
      formatLabels(obj(templateSpec(o)).nodeSelector),
      ageOf(o, now),
      names,
      images,
      formatLabelSelector(obj(o.spec).selector),
    );
  },
};

const services: BuiltinPrinter = {
  columns: [
    NAME,
    column('Type', 'string', DOC.serviceSpecType),
    column('Cluster-IP', 'string', DOC.serviceSpecClusterIP),
    column('External-IP', 'string', DOC.serviceSpecExternalIPs),
    column('Port(s)', 'string', DOC.serviceSpecPorts),
    AGE,
    column('Selector', 'string', DOC.serviceSpecSelector, { priority: 1 }),
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const clusterIP = str(arr(spec.clusterIPs)[0]) || '<none>';
    const ports = arr(spec.ports)
      .map(obj)
      .map((p) => (num(p.nodePort) > 0 ? `${num(p.port)}:${num(p.nodePort)}/${str(p.protocol)}` : `${num(p.port)}/${str(p.protocol)}`))
      .join(',');
    return row(nameOf(o), str(spec.type), clusterIP, serviceExternalIP(o), ports || '<none>', ageOf(o, now), formatLabels(spec.selector));
  },
};

/** getServiceExternalIP with wide=true (no 16-character clipping of load-balancer addresses). */
function serviceExternalIP(o: KubeObject): string {
  const spec = obj(o.spec);
  const externalIPs = arr(spec.externalIPs).map(str);
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = arr(obj(obj(obj(o.status).loadBalancer)).ingress).map(obj);
      const set = new Set(ingress.map((i) => str(i.ip) || str(i.hostname)).filter(Boolean));
      const lbIPs = [...set].sort(byteCompare).join(',');
      if (externalIPs.length > 0) return [...(lbIPs ? lbIPs.split(',') : []), ...externalIPs].join(',');
      return lbIPs || '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
  }
  return '<unknown>';
}

const configMaps: BuiltinPrinter = {
  columns: [NAME, column('Data', 'string', DOC.configMapData), AGE],
  print: (o, now) => row(nameOf(o), count(o.data) + count(o.binaryData), ageOf(o, now)),
};

const secrets: BuiltinPrinter = {
  columns: [NAME, column('Type', 'string', DOC.secretType), column('Data', 'string', DOC.secretData), AGE],
  print: (o, now) => row(nameOf(o), str(o.type), count(o.data), ageOf(o, now)),
};

const namespaces: BuiltinPrinter = {
  columns: [NAME, column('Status', 'string', 'The status of the namespace'), AGE],
  print: (o, now) => row(nameOf(o), str(obj(o.status).phase), ageOf(o, now)),
};

const serviceAccounts: BuiltinPrinter = {
  columns: [NAME, column('Secrets', 'string', DOC.serviceAccountSecrets), AGE],
  print: (o, now) => row(nameOf(o), arr(o.secrets).length, ageOf(o, now)),
};

const leases: BuiltinPrinter = {
  columns: [NAME, column('Holder', 'string', DOC.leaseSpecHolderIdentity), AGE],
  print: (o, now) => row(nameOf(o), str(obj(o.spec).holderIdentity), ageOf(o, now)),
};

const endpoints: BuiltinPrinter = {
  columns: [NAME, column('Endpoints', 'string', DOC.endpointsSubsets), AGE],
  print: (o, now) => row(nameOf(o), formatEndpoints(o), ageOf(o, now)),
};

/** formatEndpoints(endpoints, nil): up to three host:port (or bare IPs for port-less subsets). */
function formatEndpoints(o: KubeObject): string {
  const subsets = arr(o.subsets).map(obj);
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let more = false;
  let total = 0;
  for (const ss of subsets) {
    const addresses = arr(ss.addresses).map(obj);
    const ports = arr(ss.ports).map(obj);
    const targets = ports.length === 0 ? [undefined] : ports;
    for (const port of targets) {
      total += addresses.length;
      for (const a of addresses) {
        if (list.length === max) {
          more = true;
          break;
        }
        const ip = str(a.ip);
        list.push(port === undefined ? ip : `${ip.includes(':') ? `[${ip}]` : ip}:${num(port.port)}`);
      }
    }
  }
  const text = list.join(',');
  return more ? `${text} + ${total - max} more...` : text;
}

const nodes: BuiltinPrinter = {
  columns: [
    NAME,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    AGE,
    column('Version', 'string', DOC.nodeKubeletVersion),
    column('Internal-IP', 'string', DOC.nodeStatusAddresses, { priority: 1 }),
    column('External-IP', 'string', DOC.nodeStatusAddresses, { priority: 1 }),
    column('OS-Image', 'string', DOC.nodeOSImage, { priority: 1 }),
    column('Kernel-Version', 'string', DOC.nodeKernelVersion, { priority: 1 }),
    column('Container-Runtime', 'string', DOC.nodeContainerRuntimeVersion, { priority: 1 }),
  ],
  print(o, now) {
    const status = obj(o.status);
    // Only the Ready condition counts; the last one of a type wins, as the Go map does.
    const ready = arr(status.conditions).map(obj).filter((c) => c.type === 'Ready').at(-1);
    const states = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
    if (obj(o.spec).unschedulable === true) states.push('SchedulingDisabled');
    const info = obj(status.nodeInfo);
    const address = (type: string): string => str(arr(status.addresses).map(obj).find((a) => a.type === type)?.address) || '<none>';
    return row(
      nameOf(o),
      states.join(','),
      nodeRoles(o) || '<none>',
      ageOf(o, now),
      str(info.kubeletVersion),
      address('InternalIP'),
      address('ExternalIP'),
      str(info.osImage) || '<unknown>',
      str(info.kernelVersion) || '<unknown>',
      str(info.containerRuntimeVersion) || '<unknown>',
    );
  },
};

/** findNodeRoles: node-role.kubernetes.io/<role> keys and kubernetes.io/role values, sorted. */
function nodeRoles(o: KubeObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(o.metadata?.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  return [...roles].sort(byteCompare).join(',');
}

const PRINTERS: Record<string, BuiltinPrinter> = {
  '/pods': { columns: POD_COLUMNS, print: printPod },
  '/services': services,
  '/configmaps': configMaps,
  '/secrets': secrets,
  '/namespaces': namespaces,
  '/nodes': nodes,
  '/serviceaccounts': serviceAccounts,
  '/endpoints': endpoints,
  '/componentstatuses': componentStatuses,
  '/podtemplates': podTemplates,
  'policy/poddisruptionbudgets': podDisruptionBudgets,
  'networking.k8s.io/ingressclasses': ingressClasses,
  '/persistentvolumes': persistentVolumes,
  'storage.k8s.io/storageclasses': storageClasses,
  'scheduling.k8s.io/priorityclasses': priorityClasses,
  'apps/deployments': deployments,
  'apps/replicasets': replicaSets,
  'apps/statefulsets': statefulSets,
  'apps/daemonsets': daemonSets,
  'coordination.k8s.io/leases': leases,
  '/events': coreEvents,
  'events.k8s.io/events': eventsV1Events,
  '/persistentvolumeclaims': persistentVolumeClaims,
  'batch/jobs': jobs,
  'batch/cronjobs': cronJobs,
  'rbac.authorization.k8s.io/rolebindings': roleBindings,
  'rbac.authorization.k8s.io/clusterrolebindings': clusterRoleBindings,
  '/replicationcontrollers': replicationControllers,
  'networking.k8s.io/networkpolicies': networkPolicies,
  'networking.k8s.io/ingresses': ingresses,
  'apps/controllerrevisions': controllerRevisions,
  'storage.k8s.io/volumeattachments': volumeAttachments,
  'node.k8s.io/runtimeclasses': runtimeClasses,
  'discovery.k8s.io/endpointslices': endpointSlices,
  'storage.k8s.io/csinodes': csiNodes,
  'storage.k8s.io/csidrivers': csiDrivers,
  'storage.k8s.io/csistoragecapacities': csiStorageCapacities,
  'flowcontrol.apiserver.k8s.io/flowschemas': flowSchemas,
  'certificates.k8s.io/certificatesigningrequests': certificateSigningRequests,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalers,
  'autoscaling/scale': scales,
  '/resourcequotas': resourceQuotas,
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': priorityLevelConfigurations,
  ...ADMISSION_PRINTERS,
};

/** The printer kube-apiserver uses for a built-in resource, or undefined for the default table. */
export function builtinPrinter(group: string, plural: string): BuiltinPrinter | undefined {
  return PRINTERS[`${group}/${plural}`];
}
