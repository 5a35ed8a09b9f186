// printReplicationController, printNetworkPolicy, printIngress, printControllerRevision and printVolumeAttachment
// (pkg/printers/internalversion/printers.go, v1.36), their swagger-doc column descriptions
// generated (printer-docs.generated.ts).
import type { KubeObject } from '../../apis/object.ts';
import { PRINTER_DOCS } from '../../generated/printer-docs.generated.ts';
import { formatLabelSelector } from '../../selectors/format-label-selector.ts';
import { arr, byteCompare, containerCells, formatLabels, num, obj, str } from './format.ts';
import { AGE, ageOf, CONTAINERS, IMAGES, NAME, nameOf, row, templateSpec, type BuiltinPrinter } from './printer-parts.ts';
import { column } from './table-types.ts';

const doc = (key: string): string => PRINTER_DOCS[key] ?? '';

export const replicationControllers: BuiltinPrinter = {
  columns: [
    NAME,
    column('Desired', 'integer', doc('replicationControllerSpec.replicas')),
    column('Current', 'integer', doc('replicationControllerStatus.replicas')),
    column('Ready', 'integer', doc('replicationControllerStatus.readyReplicas')),
    AGE,
    CONTAINERS,
    IMAGES,
    column('Selector', 'string', doc('replicationControllerSpec.selector'), { priority: 1 }),
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const status = obj(o.status);
    const [names, images] = containerCells(templateSpec(o));
    // The selector is a plain map here, printed as labels.FormatLabels prints one.
    return row(nameOf(o), num(spec.replicas), num(status.replicas), num(status.readyReplicas), ageOf(o, now), names, images, formatLabels(spec.selector));
  },
};

export const networkPolicies: BuiltinPrinter = {
  columns: [NAME, column('Pod-Selector', 'string', doc('networkPolicySpec.podSelector')), AGE],
  // metav1.FormatLabelSelector: an empty selector (every pod) prints as <none>.
  print: (o, now) => row(nameOf(o), formatLabelSelector(obj(o.spec).podSelector ?? {}) || '<none>', ageOf(o, now)),
};

/** formatHosts: the first three rule hosts, then `+ N more...` counting every rule; `*` for none. */
function ingressHosts(rules: unknown): string {
  const all = arr(rules).map(obj);
  const hosts: string[] = [];
  let more = false;
  for (const rule of all) {
    if (hosts.length === 3) more = true;
    if (!more && str(rule.host) !== '') hosts.push(str(rule.host));
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${all.length - 3} more...` : hosts.join(',');
}

/** ingressLoadBalancerStatusStringer with wide=true: the sorted, de-duplicated IPs or host names. */
function ingressAddress(status: unknown): string {
  const points = arr(obj(obj(status).loadBalancer).ingress).map(obj);
  const set = new Set(points.map((p) => str(p.ip) || str(p.hostname)).filter((a) => a !== ''));
  return [...set].sort(byteCompare).join(',');
}

export const ingresses: BuiltinPrinter = {
  columns: [
    NAME,
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    AGE,
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const className = typeof spec.ingressClassName === 'string' ? spec.ingressClassName : '<none>';
    return row(nameOf(o), className, ingressHosts(spec.rules), ingressAddress(o.status), arr(spec.tls).length ? '80, 443' : '80', ageOf(o, now));
  },
};

/** formatResourceName of the controller's GroupKind: `kind.group/name` in lower case, `kind/name` in the core group. */
function controllerName(o: KubeObject): string {
  const ref = arr(o.metadata?.ownerReferences).map(obj).find((r) => r.controller === true);
  if (!ref) return '<none>';
  const apiVersion = str(ref.apiVersion);
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = str(ref.kind);
  const groupKind = group === '' ? kind : `${kind}.${group}`;
  return groupKind === '' ? str(ref.name) : `${groupKind.toLowerCase()}/${str(ref.name)}`;
}

export const controllerRevisions: BuiltinPrinter = {
  columns: [NAME, column('Controller', 'string', 'Controller of the object'), column('Revision', 'string', doc('controllerRevision.revision')), AGE],
  print: (o, now) => row(nameOf(o), controllerName(o), num(o.revision), ageOf(o, now)),
};

export const volumeAttachments: BuiltinPrinter = {
  columns: [
    NAME,
    column('Attacher', 'string', doc('volumeAttachmentSpec.attacher'), { format: 'name' }),
    column('PV', 'string', doc('volumeAttachmentSource.persistentVolumeName')),
    column('Node', 'string', doc('volumeAttachmentSpec.nodeName')),
    column('Attached', 'boolean', doc('volumeAttachmentStatus.attached')),
    AGE,
  ],
  print(o, now) {
    const spec = obj(o.spec);
    return row(nameOf(o), str(spec.attacher), str(obj(spec.source).persistentVolumeName), str(spec.nodeName), obj(o.status).attached === true, ageOf(o, now));
  },
};
