// PodSpec defaulting and conversion shared by Pods and every pod template (Deployments, Jobs, ...):
// pkg/apis/core/v1/defaults.go SetDefaults_PodSpec/Container/Probe/Volume/..., the declarative
// `+default` tags of k8s.io/api core/v1 and the PodSpec conversion in zz_generated.conversion.go.
// SetDefaults_Pod's extras apply to Pod objects only, pod-level resource defaults among them
// (defaultHugePagePodLimits, defaultPodRequests; defaultPodLimits came after v1.36).
import type { KubeObject } from '../object.ts';
import { formatTimestamp } from '../../go/time.ts';
import { isPlainObject } from '../object.ts';
import { addQuantities, compareQuantities, parseQuantity, type Rational, ZERO } from './quantity.ts';
import { arrAt, child, clone, type JsonObject, objAt, setDefault, unset } from './shared.ts';
import { aggregate, type PodSpecJson } from '../quota/pod-resources.ts';
import { isHugePageResourceName, isSupportedPodLevelResource } from './resource-names.ts';

const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

/** 0644, the DefaultMode of secret, configMap, downwardAPI and projected volumes. */
const VOLUME_DEFAULT_MODE = 420;

const objects = (v: unknown[] | undefined): JsonObject[] => (v ?? []).filter(isPlainObject);

/** SetDefaults_PodSpec and everything nested in a PodSpec. */
export function defaultPodSpec(spec: JsonObject): void {
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'restartPolicy', 'Always');
  if (spec.securityContext === undefined || spec.securityContext === null) spec.securityContext = {};
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'schedulerName', 'default-scheduler');
  // Convert_v1_PodSpec_To_core_PodSpec / back: serviceAccount is a deprecated alias that the
  // server keeps equal to serviceAccountName, the new field winning.
  if (unset(spec.serviceAccountName) && !unset(spec.serviceAccount)) spec.serviceAccountName = spec.serviceAccount;
  if (unset(spec.serviceAccountName)) delete spec.serviceAccount;
  else spec.serviceAccount = spec.serviceAccountName;
  for (const list of CONTAINER_LISTS) objects(arrAt(spec, list)).forEach(defaultContainer);
  objects(arrAt(spec, 'volumes')).forEach(defaultVolume);
}

/** SetDefaults_Pod: the parts that materialise on Pods but not on templates. */
export function defaultPodOnly(pod: KubeObject): void {
  const spec = objAt(pod, 'spec');
  if (!spec) return;
  for (const list of ['containers', 'initContainers'] as const) {
    for (const c of objects(arrAt(spec, list))) {
      const resources = objAt(c, 'resources');
      const limits = objAt(resources, 'limits');
      if (!resources || !limits) continue;
      const requests = child(resources, 'requests');
      for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = clone(v);
    }
  }
  // After the containers' own defaults (PodLevelResources is on by default in v1.36).
  defaultHugePagePodLimits(spec);
  defaultPodRequests(spec);
  if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) {
    for (const list of ['containers', 'initContainers'] as const) {
      for (const c of objects(arrAt(spec, list))) {
        for (const p of objects(arrAt(c, 'ports'))) if (unset(p.hostPort) || p.hostPort === 0) p.hostPort = p.containerPort;
      }
    }
  }
}

/**
 * defaultHugePagePodLimits: once pod-level resources are partly set, a hugepages limit the
 * containers have and the pod has neither as limit nor as request becomes the containers' total.
 */
function defaultHugePagePodLimits(spec: JsonObject): void {
  const resources = objAt(spec, 'resources');
  const limits = objAt(resources, 'limits') ?? {};
  const requests = objAt(resources, 'requests') ?? {};
  if (!resources || (Object.keys(limits).length === 0 && Object.keys(requests).length === 0)) return;
  const next: JsonObject = { ...limits };
  for (const [name, q] of aggregate(spec as PodSpecJson, 'limits')) {
    if (!isHugePageResourceName(name) || name in requests || name in next) continue;
    next[name] = q.toString();
  }
  if (Object.keys(next).length > 0) resources.limits = next;
}

/**
 * defaultPodRequests: when pod-level limits are set, each unset pod-level request becomes the
 * containers' aggregate request (cpu and memory, which can be overcommitted), else the pod's limit.
 */
function defaultPodRequests(spec: JsonObject): void {
  const resources = objAt(spec, 'resources');
  const limits = objAt(resources, 'limits');
  if (!resources || !limits || Object.keys(limits).length === 0) return;
  const requests: JsonObject = { ...(objAt(resources, 'requests') ?? {}) };
  for (const [name, q] of aggregate(spec as PodSpecJson, 'requests')) {
    if (!(name in requests) && isSupportedPodLevelResource(name) && !isHugePageResourceName(name)) requests[name] = q.toString();
  }
  for (const [name, q] of Object.entries(limits)) if (!(name in requests) && isSupportedPodLevelResource(name)) requests[name] = clone(q);
  if (Object.keys(requests).length > 0) resources.requests = requests;
}

/** Defaults of a PodTemplateSpec's spec, when present. */
export function defaultPodTemplate(template: unknown): void {
  const spec = objAt(template, 'spec');
  if (spec) defaultPodSpec(spec);
}

function defaultContainer(c: JsonObject): void {
  if (unset(c.imagePullPolicy)) c.imagePullPolicy = imageTag(c.image) === 'latest' ? 'Always' : 'IfNotPresent';
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  // ResourceRequirements is a non-pointer struct: Go always writes `resources: {}`.
  if (!isPlainObject(c.resources)) c.resources = {};
  for (const p of objects(arrAt(c, 'ports'))) setDefault(p, 'protocol', 'TCP');
  for (const probe of PROBES) {
    const p = objAt(c, probe);
    if (p) defaultProbe(p);
  }
  const lifecycle = objAt(c, 'lifecycle');
  for (const hook of ['postStart', 'preStop']) {
    const httpGet = objAt(objAt(lifecycle, hook), 'httpGet');
    if (httpGet) defaultHTTPGet(httpGet);
  }
  for (const env of objects(arrAt(c, 'env'))) {
    const fieldRef = objAt(objAt(env, 'valueFrom'), 'fieldRef');
    if (fieldRef) setDefault(fieldRef, 'apiVersion', 'v1');
  }
}

function defaultProbe(p: JsonObject): void {
  for (const [k, v] of [['timeoutSeconds', 1], ['periodSeconds', 10], ['successThreshold', 1], ['failureThreshold', 3]] as const) {
    if (unset(p[k]) || p[k] === 0) p[k] = v;
  }
  const httpGet = objAt(p, 'httpGet');
  if (httpGet) defaultHTTPGet(httpGet);
  const grpc = objAt(p, 'grpc');
  // `service` is a *string without omitempty and `+default=""`.
  if (grpc && (grpc.service === undefined || grpc.service === null)) grpc.service = '';
}

function defaultHTTPGet(h: JsonObject): void {
  setDefault(h, 'path', '/');
  setDefault(h, 'scheme', 'HTTP');
}

function defaultVolume(v: JsonObject): void {
  const hasSource = Object.entries(v).some(([k, val]) => k !== 'name' && val !== undefined && val !== null);
  if (!hasSource) v.emptyDir = {};
  for (const key of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const source = objAt(v, key);
    if (source) setDefault(source, 'defaultMode', VOLUME_DEFAULT_MODE);
  }
  const hostPath = objAt(v, 'hostPath');
  // HostPathUnset is "" and the field has no omitempty, so `type: ""` shows.
  if (hostPath && (hostPath.type === undefined || hostPath.type === null)) hostPath.type = '';
  defaultFieldRefs(objAt(v, 'downwardAPI'));
  for (const source of objects(arrAt(objAt(v, 'projected'), 'sources'))) {
    defaultFieldRefs(objAt(source, 'downwardAPI'));
    const token = objAt(source, 'serviceAccountToken');
    if (token) setDefault(token, 'expirationSeconds', 3600);
  }
  const claimSpec = objAt(objAt(objAt(v, 'ephemeral'), 'volumeClaimTemplate'), 'spec');
  if (claimSpec) defaultPersistentVolumeClaimSpec(claimSpec);
}

function defaultFieldRefs(downwardAPI: JsonObject | undefined): void {
  for (const item of objects(arrAt(downwardAPI, 'items'))) {
    const fieldRef = objAt(item, 'fieldRef');
    if (fieldRef) setDefault(fieldRef, 'apiVersion', 'v1');
  }
}

/** SetDefaults_PersistentVolumeClaimSpec. */
export function defaultPersistentVolumeClaimSpec(spec: JsonObject): void {
  setDefault(spec, 'volumeMode', 'Filesystem');
}

/**
 * The tag pkg/util/parsers.ParseImageName reports: the explicit tag, "latest" when the reference
 * has neither tag nor digest, "" for a digest-only or unparsable reference.
 */
export function imageTag(image: unknown): string {
  if (typeof image !== 'string' || image === '') return '';
  const at = image.indexOf('@');
  const name = at < 0 ? image : image.slice(0, at);
  const digest = at < 0 ? '' : image.slice(at + 1);
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  const tag = colon > slash ? name.slice(colon + 1) : '';
  const repo = colon > slash ? name.slice(0, colon) : name;
  const path = slash < 0 || !looksLikeDomain(repo.slice(0, repo.indexOf('/'))) ? repo : repo.slice(repo.indexOf('/') + 1);
  // docker reference names are lowercase path components; anything else fails to parse.
  if (!/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/.test(path)) return '';
  if (tag !== '' && !/^[\w][\w.-]{0,127}$/.test(tag)) return '';
  if (tag === '' && digest === '') return 'latest';
  return tag;
}

function looksLikeDomain(first: string): boolean {
  return first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase();
}

/** The status a Pod is created with (pod strategy PrepareForCreate). */
export function initialPodStatus(pod: KubeObject, now: () => Date): JsonObject {
  const status: JsonObject = { phase: 'Pending', qosClass: computePodQOS(pod) };
  const gates = arrAt(objAt(pod, 'spec'), 'schedulingGates');
  if (gates && gates.length > 0) {
    // applySchedulingGatedCondition; Go writes the never-set lastProbeTime as null.
    status.conditions = [
      {
        type: 'PodScheduled',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: formatTimestamp(now()),
        reason: 'SchedulingGated',
        message: 'Scheduling is blocked due to non-empty scheduling gates',
      },
    ];
  }
  return status;
}

const QOS_RESOURCES = new Set(['cpu', 'memory']);

/** ComputePodQOS (pkg/apis/core/helper/qos), with pod-level resources taking over when set. */
export function computePodQOS(pod: KubeObject): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const spec = objAt(pod, 'spec') ?? {};
  const requests = new Map<string, Rational>();
  const limits = new Map<string, Rational>();
  let guaranteed = true;
  const add = (into: Map<string, Rational>, list: JsonObject | undefined): Set<string> => {
    const found = new Set<string>();
    for (const [name, raw] of Object.entries(list ?? {})) {
      if (!QOS_RESOURCES.has(name)) continue;
      const q = parseQuantity(raw);
      if (!q || compareQuantities(q, ZERO) <= 0) continue;
      found.add(name);
      into.set(name, into.has(name) ? addQuantities(into.get(name)!, q) : q);
    }
    return found;
  };
  const podResources = objAt(spec, 'resources');
  if (podLevelResourcesSet(podResources)) {
    add(requests, objAt(podResources, 'requests'));
    const podLimits = objAt(podResources, 'limits');
    if (podLimits && Object.keys(podLimits).length > 0) {
      const found = add(limits, podLimits);
      if (!found.has('memory') || !found.has('cpu')) guaranteed = false;
    }
  } else {
    for (const c of [...objects(arrAt(spec, 'containers')), ...objects(arrAt(spec, 'initContainers'))]) {
      const resources = objAt(c, 'resources');
      add(requests, objAt(resources, 'requests'));
      const found = add(limits, objAt(resources, 'limits'));
      if (!found.has('memory') || !found.has('cpu')) guaranteed = false;
    }
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || compareQuantities(lim, req) !== 0) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** isPodLevelResourcesSet: pod-level requests or limits name a supported resource. */
function podLevelResourcesSet(resources: JsonObject | undefined): boolean {
  return [objAt(resources, 'requests'), objAt(resources, 'limits')].some((list) => Object.keys(list ?? {}).some(isSupportedPodLevelResource));
}
