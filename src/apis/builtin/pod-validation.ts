// Pod and PodTemplateSpec validation: the common part of pkg/apis/core/validation/validation.go
// (v1.36) that a controller's objects run into — ValidatePodSpec's containers, init containers,
// ports, env, volumes and mounts, restartPolicy, dnsPolicy and the scalar fields, with the Go texts
// and field paths. Runs after defaulting, as the registry runs it (so protocol, pull policy and
// the termination message policy are set). Security contexts and the OS rules are in
// pod-security-validation.ts, affinity, scheduling gates and topology spread in
// pod-scheduling-validation.ts, probes and lifecycle hooks in pod-probe-validation.ts, DNS config,
// readiness gates and host aliases in pod-dns-validation.ts, container resources in
// pod-resources-validation.ts (pod-level resources too), resource claims in pod-claims-validation.ts,
// the ephemeralcontainers subresource in pod-ephemeral-containers.ts.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { isDNS1123Label, isDNS1123Subdomain, isValidLabelValue } from '../../validation/names.ts';
import { validateAnnotations, validateLabelName, validateLabels } from '../../validation/meta-fields.ts';
import { isValidPortName, isValidPortNum, SUPPORTED_PORT_PROTOCOLS } from '../../validation/ports.ts';
import { isPlainObject } from '../object.ts';
import { validateContainerSecurityContext, validateHostUsers, validatePodOS, validatePodSecurityContext } from './pod-security-validation.ts';
import { validateHostAliases, validatePodDNSConfig, validateReadinessGates } from './pod-dns-validation.ts';
import { podClaimNames, validatePodResourceClaims } from './pod-claims-validation.ts';
import { validateContainerResources, validatePodLevelResources } from './pod-resources-validation.ts';
import { validateInitContainerHooks, validateRegularContainerHooks } from './pod-probe-validation.ts';
import { validateAffinity, validateSchedulingGates, validateTopologySpreadConstraints } from './pod-scheduling-validation.ts';
import { asObject, goString } from './shared.ts';

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
// The volume sources of core.VolumeSource (one must be set), in the order validateVolumeSource
// checks them: the first one set counts, each later one is a Forbidden of its own.
const VOLUME_SOURCES = [
  'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs', 'flocker',
  'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap', 'azureFile',
  'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'projected', 'scaleIO', 'csi', 'ephemeral',
  'image',
];
// The field names validateVolumeSource reports a second source under, where they are not the JSON name.
const EXTRA_SOURCE_PATH: Record<string, string> = { cephfs: 'cephFS', downwardAPI: 'downwarAPI' };

/** ValidateDNS1123Label on a field. */
const dnsLabel = (value: string, path: string): FieldError[] => isDNS1123Label(value).map((msg) => fieldError.invalid(path, value, msg));

function supported(value: string, path: string, values: readonly string[]): FieldError[] {
  if (value === '') return [fieldError.required(path)];
  return values.includes(value) ? [] : [fieldError.notSupported(path, value, values)];
}

/** ValidateVolumes: names, uniqueness and exactly one source; answers the names that are valid. */
function validateVolumes(volumes: Json[], path: string): { names: Set<string>; errors: FieldError[] } {
  const names = new Set<string>();
  const errors: FieldError[] = [];
  volumes.forEach((v, i) => {
    const idx = `${path}[${i}]`;
    const name = goString(v.name);
    const sources = VOLUME_SOURCES.filter((s) => v[s] !== undefined && v[s] !== null);
    const own: FieldError[] = [];
    if (sources.length === 0) own.push(fieldError.required(idx, 'must specify a volume type'));
    for (const extra of sources.slice(1)) own.push(fieldError.forbidden(`${idx}.${EXTRA_SOURCE_PATH[extra] ?? extra}`, 'may not specify more than 1 volume type'));
    if (name === '') own.push(fieldError.required(`${idx}.name`));
    else own.push(...dnsLabel(name, `${idx}.name`));
    if (names.has(name)) own.push(fieldError.duplicate(`${idx}.name`, name));
    // Only a volume without errors can be mounted (a mount of the others is NotFound).
    if (own.length === 0) names.add(name);
    errors.push(...own);
  });
  return { names, errors };
}

function validatePorts(ports: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const idx = `${path}[${i}]`;
    const name = goString(p.name);
    if (name !== '') {
      const msgs = isValidPortName(name);
      if (msgs.length) errs.push(...msgs.map((m) => fieldError.invalid(`${idx}.name`, name, m)));
      else if (names.has(name)) errs.push(fieldError.duplicate(`${idx}.name`, name));
      else names.add(name);
    }
    const containerPort = typeof p.containerPort === 'number' ? p.containerPort : 0;
    if (containerPort === 0) errs.push(fieldError.required(`${idx}.containerPort`));
    else errs.push(...isValidPortNum(containerPort).map((m) => fieldError.invalid(`${idx}.containerPort`, containerPort, m)));
    const hostPort = typeof p.hostPort === 'number' ? p.hostPort : 0;
    if (hostPort !== 0) errs.push(...isValidPortNum(hostPort).map((m) => fieldError.invalid(`${idx}.hostPort`, hostPort, m)));
    errs.push(...supported(goString(p.protocol), `${idx}.protocol`, SUPPORTED_PORT_PROTOCOLS));
  });
  return errs;
}

/** ValidateEnv with RelaxedEnvironmentVariableValidation (on since 1.34): printable ASCII but '='. */
function validateEnv(env: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  env.forEach((e, i) => {
    const idx = `${path}[${i}]`;
    const name = goString(e.name);
    if (name === '') errs.push(fieldError.required(`${idx}.name`));
    else if (!/^[ -<>-~]+$/.test(name)) errs.push(fieldError.invalid(`${idx}.name`, name, "a valid environment variable name must consist only of printable ASCII characters other than '='"));
    const from = asObject(e.valueFrom);
    if (from) {
      const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef', 'fileKeyRef'].filter((k) => from[k] !== undefined && from[k] !== null);
      if (sources.length === 0) errs.push(fieldError.invalid(`${idx}.valueFrom`, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
      else if (goString(e.value) !== '') errs.push(fieldError.invalid(`${idx}.valueFrom`, '', 'may not be specified when `value` is not empty'));
      else if (sources.length > 1) errs.push(fieldError.invalid(`${idx}.valueFrom`, '', 'may not have more than one field specified at a time'));
    }
  });
  return errs;
}

function validateVolumeMounts(mounts: Json[], volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  mounts.forEach((m, i) => {
    const idx = `${path}[${i}]`;
    const name = goString(m.name);
    if (name === '') errs.push(fieldError.required(`${idx}.name`));
    if (!volumes.has(name)) errs.push(fieldError.notFound(`${idx}.name`, name));
    const mountPath = goString(m.mountPath);
    if (mountPath === '') errs.push(fieldError.required(`${idx}.mountPath`));
    if (mountPoints.has(mountPath)) errs.push(fieldError.invalid(`${idx}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
  });
  return errs;
}

/** validateContainerCommon (the part ported), for every kind of container at `idx`. */
function validateContainerCommon(c: Json, volumes: Set<string>, claims: Set<string>, idx: string, hostUsers: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = goString(c.name);
  if (name === '') errs.push(fieldError.required(`${idx}.name`));
  else errs.push(...dnsLabel(name, `${idx}.name`));
  if (goString(c.image) === '') errs.push(fieldError.required(`${idx}.image`));
  errs.push(...supported(goString(c.terminationMessagePolicy), `${idx}.terminationMessagePolicy`, TERMINATION_MESSAGE_POLICIES));
  errs.push(...validatePorts(list(c.ports), `${idx}.ports`));
  errs.push(...validateEnv(list(c.env), `${idx}.env`));
  errs.push(...validateVolumeMounts(list(c.volumeMounts), volumes, `${idx}.volumeMounts`));
  errs.push(...supported(goString(c.imagePullPolicy), `${idx}.imagePullPolicy`, PULL_POLICIES));
  errs.push(...validateContainerResources(c.resources, claims, `${idx}.resources`));
  errs.push(...validateContainerSecurityContext(c, hostUsers, idx));
  return errs;
}

/** validateContainerCommon plus the name uniqueness validateContainers checks across containers. */
function validateContainerList(containers: Json[], volumes: Set<string>, claims: Set<string>, path: string, seen: Set<string>, hostUsers: boolean, gracePeriod: number | undefined, init: boolean): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    const idx = `${path}[${i}]`;
    const name = goString(c.name);
    errs.push(...validateContainerCommon(c, volumes, claims, idx, hostUsers));
    if (seen.has(name)) errs.push(fieldError.duplicate(`${idx}.name`, name));
    else seen.add(name);
    // Init containers run one by one: each is checked alone, Go passing it as a list of one (so at index 0).
    if (init) errs.push(...checkHostPortConflicts([c], path));
    errs.push(...(init ? validateInitContainerHooks(c, gracePeriod, idx) : validateRegularContainerHooks(c, gracePeriod, idx)));
  });
  // Port conflicts are checked across all the app containers.
  if (!init) errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

/**
 * validatePodHostNetworkDeps: with hostNetwork an app container's hostPort is its containerPort.
 * Go lets a template leave it 0 (ResourceIsPod is false there); a Pod's was defaulted to the
 * containerPort already, so checking only set host ports gives both answers.
 */
function validatePodHostNetworkDeps(spec: Json, path: string): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  list(spec.containers).forEach((c, i) => {
    list(c.ports).forEach((p, j) => {
      const hostPort = typeof p.hostPort === 'number' ? p.hostPort : 0;
      const containerPort = typeof p.containerPort === 'number' ? p.containerPort : 0;
      if (hostPort !== 0 && hostPort !== containerPort) errs.push(fieldError.invalid(`${path}.containers[${i}].ports[${j}].hostPort`, hostPort, 'must match `containerPort` when `hostNetwork` is true'));
    });
  });
  return errs;
}

/** checkHostPortConflicts (AccumulateUniqueHostPorts): one protocol/hostIP/hostPort per list. */
function checkHostPortConflicts(containers: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    list(c.ports).forEach((p, pi) => {
      const port = typeof p.hostPort === 'number' ? p.hostPort : 0;
      if (port === 0) return;
      const key = `${goString(p.protocol)}/${goString(p.hostIP)}/${port}`;
      if (seen.has(key)) errs.push(fieldError.duplicate(`${path}[${ci}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    });
  });
  return errs;
}

// allowedEphemeralContainerFields: the EphemeralContainerCommon fields an ephemeral container may
// set; any other set field is Forbidden, named as Go lower-cases the struct field's first letter.
const EPHEMERAL_FORBIDDEN_FIELDS = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'restartPolicyRules', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];
const EPHEMERAL_FORBIDDEN = 'cannot be set for an Ephemeral Container';

/** A field holding other than Go's zero value (`resources: {}` is the zero ResourceRequirements). */
function isSetField(key: string, v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === false) return false;
  return !(key === 'resources' && isPlainObject(v) && Object.keys(v).length === 0);
}

/**
 * validateEphemeralContainers: each is a container (validateContainerCommon and the pod-only
 * image rule) whose name is unique across every kind of container, whose target container exists
 * and is not ephemeral, and which sets none of the fields a workload needs, nor a subPath.
 */
function validateEphemeralContainers(spec: Json, volumes: Set<string>, claims: Set<string>, path: string, hostUsers: boolean): FieldError[] {
  const ephemeral = list(spec.ephemeralContainers);
  if (ephemeral.length === 0) return [];
  const others = new Set([...list(spec.containers), ...list(spec.initContainers)].map((c) => goString(c.name)));
  const all = new Set(others);
  const errs: FieldError[] = [];
  ephemeral.forEach((ec, i) => {
    const idx = `${path}[${i}]`;
    errs.push(...validateContainerCommon(ec, volumes, claims, idx, hostUsers));
    const image = goString(ec.image);
    if (image.trim() !== image) errs.push(fieldError.invalid(`${idx}.image`, image, 'must not have leading or trailing whitespace'));
    const name = goString(ec.name);
    if (all.has(name)) errs.push(fieldError.duplicate(`${idx}.name`, name));
    else all.add(name);
    const target = goString(ec.targetContainerName);
    if (target !== '' && !others.has(target)) errs.push(fieldError.notFound(`${idx}.targetContainerName`, target));
    for (const key of EPHEMERAL_FORBIDDEN_FIELDS) if (isSetField(key, ec[key])) errs.push(fieldError.forbidden(`${idx}.${key}`, EPHEMERAL_FORBIDDEN));
    list(ec.volumeMounts).forEach((vm, j) => {
      if (goString(vm.subPath) !== '') errs.push(fieldError.forbidden(`${idx}.volumeMounts[${j}].subPath`, EPHEMERAL_FORBIDDEN));
      if (goString(vm.subPathExpr) !== '') errs.push(fieldError.forbidden(`${idx}.volumeMounts[${j}].subPathExpr`, EPHEMERAL_FORBIDDEN));
    });
  });
  return errs;
}

/** ValidatePodSpec (the part ported): `path` is `spec` or `spec.template.spec`. */
export function validatePodSpec(spec: unknown, path: string): FieldError[] {
  const s = asObject(spec) ?? {};
  const errs: FieldError[] = [];
  const { names: volumes, errors: volumeErrors } = validateVolumes(list(s.volumes), `${path}.volumes`);
  errs.push(...volumeErrors);
  const claims = podClaimNames(s);
  errs.push(...validatePodResourceClaims(s.resourceClaims, `${path}.resourceClaims`));
  const containers = list(s.containers);
  const seen = new Set<string>();
  // The default for hostUsers is true: only an explicit false gives the pod its own user namespace.
  const hostUsers = s.hostUsers !== false;
  // The pod's grace period bounds a sleep hook (ValidatePodSpec passes spec.TerminationGracePeriodSeconds).
  const gracePeriod = typeof s.terminationGracePeriodSeconds === 'number' ? s.terminationGracePeriodSeconds : undefined;
  if (containers.length === 0) errs.push(fieldError.required(`${path}.containers`));
  else errs.push(...validateContainerList(containers, volumes, claims, `${path}.containers`, seen, hostUsers, gracePeriod, false));
  // Init container names must not collide with the app containers' either.
  errs.push(...validateContainerList(list(s.initContainers), volumes, claims, `${path}.initContainers`, seen, hostUsers, gracePeriod, true));
  errs.push(...validateEphemeralContainers(s, volumes, claims, `${path}.ephemeralContainers`, hostUsers));
  // opts.PodLevelResourcesEnabled: PodLevelResources is on by default in v1.36.
  errs.push(...validatePodLevelResources(s, claims, `${path}.resources`));
  errs.push(...validatePodHostNetworkDeps(s, path));
  errs.push(...supported(goString(s.restartPolicy), `${path}.restartPolicy`, RESTART_POLICIES));
  errs.push(...supported(goString(s.dnsPolicy), `${path}.dnsPolicy`, DNS_POLICIES));
  const nodeSelector = asObject(s.nodeSelector);
  if (nodeSelector) errs.push(...validateLabels(nodeSelector as Record<string, string>, `${path}.nodeSelector`));
  errs.push(...validatePodSecurityContext(s, path));
  errs.push(...validateAffinity(s.affinity, `${path}.affinity`));
  errs.push(...validatePodDNSConfig(s.dnsConfig, s.dnsPolicy, `${path}.dnsConfig`));
  errs.push(...validateReadinessGates(s.readinessGates, `${path}.readinessGates`));
  errs.push(...validateSchedulingGates(s.schedulingGates, `${path}.schedulingGates`));
  errs.push(...validateTopologySpreadConstraints(s.topologySpreadConstraints, `${path}.topologySpreadConstraints`));
  errs.push(...validateHostUsers(s, path));
  const sa = goString(s.serviceAccountName);
  if (sa !== '') errs.push(...isDNS1123Subdomain(sa).map((m) => fieldError.invalid(`${path}.serviceAccountName`, sa, m)));
  const nodeName = goString(s.nodeName);
  if (nodeName !== '') errs.push(...isDNS1123Subdomain(nodeName).map((m) => fieldError.invalid(`${path}.nodeName`, nodeName, m)));
  if (typeof s.activeDeadlineSeconds === 'number' && (s.activeDeadlineSeconds < 1 || s.activeDeadlineSeconds > 2147483647)) {
    errs.push(fieldError.invalid(`${path}.activeDeadlineSeconds`, s.activeDeadlineSeconds, 'must be between 1 and 2147483647, inclusive'));
  }
  for (const key of ['hostname', 'subdomain'] as const) {
    const v = goString(s[key]);
    if (v !== '') errs.push(...dnsLabel(v, `${path}.${key}`));
  }
  errs.push(...validateTolerations(list(s.tolerations), `${path}.tolerations`));
  errs.push(...validateHostAliases(s.hostAliases, `${path}.hostAliases`));
  errs.push(...validatePodOS(s, path));
  return errs;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** ValidateTolerations: key, operator and value, effect (tolerationSeconds only with NoExecute). */
export function validateTolerations(tolerations: Json[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const idx = `${path}[${i}]`;
    const key = goString(t.key);
    const operator = goString(t.operator);
    const value = goString(t.value);
    const effect = goString(t.effect);
    if (key !== '') errs.push(...validateLabelName(key, `${idx}.key`));
    if (key === '' && operator !== 'Exists') {
      errs.push(fieldError.invalid(`${idx}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(fieldError.invalid(`${idx}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (operator === 'Equal' || operator === '') {
      const msgs = isValidLabelValue(value);
      if (msgs.length) errs.push(fieldError.invalid(`${idx}.operator`, value, msgs.join(';')));
    } else if (operator === 'Exists') {
      if (value !== '') errs.push(fieldError.invalid(`${idx}.operator`, value, "value must be empty when `operator` is 'Exists'"));
    } else errs.push(fieldError.notSupported(`${idx}.operator`, operator, ['Equal', 'Exists']));
    if (effect !== '' && !TAINT_EFFECTS.includes(effect)) errs.push(fieldError.notSupported(`${idx}.effect`, effect, TAINT_EFFECTS));
  });
  return errs;
}

/**
 * validatePodMetadataAndSpec's pod-only part (validateContainersOnlyForPod): an image may not have
 * leading or trailing whitespace in a Pod (templates keep the older, laxer rule).
 */
export function validateContainersOnlyForPod(spec: unknown): FieldError[] {
  const s = asObject(spec) ?? {};
  const errs: FieldError[] = [];
  for (const key of ['containers', 'initContainers'] as const) {
    list(s[key]).forEach((c, i) => {
      const image = goString(c.image);
      if (image.trim() !== image) errs.push(fieldError.invalid(`spec.${key}[${i}].image`, image, 'must not have leading or trailing whitespace'));
    });
  }
  return errs;
}

/**
 * ValidatePodTemplateSpec: the template's labels and annotations (metadata is validated as a
 * template's, without name rules) and its spec. `path` is `spec.template`.
 */
export function validatePodTemplateSpec(template: unknown, path: string): FieldError[] {
  const t = asObject(template) ?? {};
  const meta = asObject(t.metadata) ?? {};
  const errs: FieldError[] = [];
  const labels = asObject(meta.labels);
  if (labels) errs.push(...validateLabels(labels as Record<string, string>, `${path}.labels`));
  const annotations = asObject(meta.annotations);
  if (annotations) errs.push(...validateAnnotations(annotations as Record<string, string>, `${path}.annotations`));
  errs.push(...validatePodSpec(t.spec, `${path}.spec`));
  return errs;
}
