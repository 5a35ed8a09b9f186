// core/v1 (the legacy group): discovery data from the generated catalogue (api/discovery/api__v1.json),
// behaviour from pkg/registry/core/<resource>/{strategy.go,storage/storage.go}, field selectors
// from pkg/apis/core/v1/conversion.go, defaults from pkg/apis/core/v1/defaults.go.
import type { ResourceType } from '../resource-type.ts';
import { forbidden } from '../../errors/status-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import { checkWrappedPreconditions, FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type DeletionOutcome } from '../deletion-strategy.ts';
import type { DeleteOptions } from '../options.ts';
import { type FieldError, fieldError, fieldPath } from '../../errors/field-error.ts';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../validation/meta-fields.ts';
import { byteLength, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, regexError } from '../../validation/names.ts';
import type { KubeObject, StoredObject } from '../object.ts';
import { isPlainObject } from '../object.ts';
import type { Strategy } from '../resource-type.ts';
import type { BuiltinContext } from './context.ts';
import { moreCoreV1ResourceTypes } from './core-v1-more.ts';
import { decodedLength } from '../../go/base64.ts';
import { defaultPersistentVolumeClaimSpec, defaultPodOnly, defaultPodSpec, initialPodStatus } from './pod-spec.ts';
import { validatePodCreate, validatePodUpdate } from './pod-object-validation.ts';
import { podResizeStrategy } from './pod-resize.ts';
import { podEphemeralContainersStrategy } from './pod-ephemeral-containers.ts';
import { mergeMatchLabelKeys } from './pod-match-label-keys.ts';
import { validatePersistentVolumeClaim, validatePersistentVolumeClaimUpdate } from './storage-validation.ts';
import { defaultService, serviceStatusShape, serviceStrategy } from './service.ts';
import { keepFromStored, validateNamespaceStatus, validateStatus } from './status-strategies.ts';
import {
  arrAt,
  builtin,
  child,
  clone,
  composeStrategy,
  defaulting,
  generation,
  getIn,
  goBool,
  goString,
  type JsonObject,
  meta,
  metadataName,
  metadataNamespace,
  objAt,
  semanticEqual,
  setDefault,
  sortedKeys,
  statusSubresource,
  unset,
  zeroFields,
} from './shared.ts';

/** The pod connecters and the HTTP methods each is installed for (their ConnectMethods; log is a GET). */
const POD_CONNECT_METHODS: Readonly<Record<string, readonly string[]>> = {
  log: ['GET'],
  exec: ['GET', 'POST'],
  attach: ['GET', 'POST'],
  portforward: ['GET', 'POST'],
  proxy: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
};

const core = (def: Parameters<typeof builtin>[2]) => builtin('', 'v1', def);

/** core.MaxSecretSize, also the ConfigMap limit. */
export const MAX_SECRET_SIZE = 1 * 1024 * 1024;

export function coreV1ResourceTypes(ctx: BuiltinContext): ResourceType[] {
  return [
    ...moreCoreV1ResourceTypes(ctx),
    core({
      kind: 'Namespace',
      plural: 'namespaces',
      namespaced: false,
      subresources: ['status'],
      nameRule: 'dns1123-label',
      fieldSelectors: {
        'metadata.name': metadataName,
        'status.phase': (obj) => goString(getIn(obj, ['status', 'phase'])),
      },
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: false,
      returnDeletedObject: true,
      strategy: namespaceStrategy,
      statusStrategy: composeStrategy(defaulting(defaultNamespace), keepFromStored('spec'), validateStatus(validateNamespaceStatus)),
      updateSubresources: { finalize: namespaceFinalizeStrategy },
    }),
    core({
      kind: 'ConfigMap',
      plural: 'configmaps',
      namespaced: true,
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: false,
      returnDeletedObject: false,
      strategy: { validate: validateConfigMap, validateUpdate: validateConfigMapUpdate },
    }),
    core({
      kind: 'Secret',
      plural: 'secrets',
      namespaced: true,
      fieldSelectors: {
        'metadata.name': metadataName,
        'metadata.namespace': metadataNamespace,
        type: (obj) => goString(obj.type),
      },
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: false,
      returnDeletedObject: false,
      strategy: composeStrategy(defaulting(defaultSecret), { validate: validateSecret, validateUpdate: validateSecretUpdate }),
    }),
    core({
      kind: 'Pod',
      plural: 'pods',
      namespaced: true,
      subresources: ['status'],
      fieldSelectors: podFieldSelectors,
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: false,
      returnDeletedObject: true,
      strategy: podStrategy(ctx),
      statusStrategy: podStatusStrategy,
      connectSubresources: POD_CONNECT_METHODS,
      postSubresources: { binding: 'pod-binding', eviction: 'pod-eviction' },
      updateSubresources: {
        resize: composeStrategy(defaulting(defaultPod), podResizeStrategy),
        ephemeralcontainers: composeStrategy(defaulting(defaultPod), podEphemeralContainersStrategy),
      },
    }),
    core({
      kind: 'Service',
      plural: 'services',
      namespaced: true,
      subresources: ['status'],
      nameRule: 'dns1035-label',
      fieldSelectors: {
        'metadata.name': metadataName,
        'metadata.namespace': metadataNamespace,
        'spec.clusterIP': (obj) => goString(getIn(obj, ['spec', 'clusterIP'])),
        'spec.type': (obj) => goString(getIn(obj, ['spec', 'type'])),
      },
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: true,
      returnDeletedObject: true,
      strategy: composeStrategy(defaulting(defaultService), serviceStrategy(ctx), defaulting(serviceStatusShape)),
      statusStrategy: composeStrategy(defaulting(defaultService), keepFromStored('spec'), defaulting(serviceStatusShape)),
    }),
    core({
      kind: 'ServiceAccount',
      plural: 'serviceaccounts',
      namespaced: true,
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: false,
      returnDeletedObject: true,
      strategy: defaulting(cleanSecretReferences),
      postSubresources: { token: 'serviceaccount-token' },
    }),
    core({
      kind: 'Endpoints',
      plural: 'endpoints',
      namespaced: true,
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: true,
      returnDeletedObject: false,
      strategy: composeStrategy(defaulting(defaultEndpoints), { warnings: () => [ENDPOINTS_DEPRECATED] }),
      readWarnings: [ENDPOINTS_DEPRECATED],
    }),
    core({
      kind: 'Event',
      plural: 'events',
      namespaced: true,
      // ValidateEventCreate runs no name function for v1 requests, leaving the generic path-segment rule.
      nameRule: 'path-segment',
      fieldSelectors: coreEventFieldSelectors,
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: true,
      returnDeletedObject: false,
      strategy: { validate: (obj) => legacyValidateEvent(coreEventView(obj)), validateUpdate: (obj) => legacyValidateEvent(coreEventView(obj)) },
    }),
    core({
      kind: 'Node',
      plural: 'nodes',
      namespaced: false,
      subresources: ['status'],
      fieldSelectors: {
        'metadata.name': metadataName,
        'spec.unschedulable': (obj) => goBool(getIn(obj, ['spec', 'unschedulable'])),
      },
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: false,
      returnDeletedObject: false,
      // Nodes may set status on create (the kubelet registers with it); updates keep the stored one.
      strategy: composeStrategy(defaulting(defaultNode), { prepareForUpdate: keepStatus }, defaulting(nodeStatusShape)),
      statusStrategy: composeStrategy(defaulting(defaultNode), keepFromStored('spec'), defaulting(nodeStatusShape)),
    }),
    core({
      kind: 'PersistentVolumeClaim',
      plural: 'persistentvolumeclaims',
      namespaced: true,
      subresources: ['status'],
      allowUnconditionalUpdate: true,
      allowCreateOnUpdate: false,
      returnDeletedObject: true,
      strategy: composeStrategy(defaulting(defaultPersistentVolumeClaim), statusSubresource(), defaulting(defaultPersistentVolumeClaim), {
        validate: validatePersistentVolumeClaim,
        validateUpdate: validatePersistentVolumeClaimUpdate,
      }),
      statusStrategy: composeStrategy(defaulting(defaultPersistentVolumeClaim), keepFromStored('spec'), defaulting(defaultPersistentVolumeClaim)),
    }),
  ];
}

// ---- Namespace (pkg/registry/core/namespace/strategy.go) ----

const METADATA_NAME_LABEL = 'kubernetes.io/metadata.name';

/** SetDefaults_Namespace / SetDefaults_NamespaceStatus, and the strategy's Canonicalize. */
function defaultNamespace(obj: KubeObject): void {
  const name = obj.metadata?.name;
  if (typeof name === 'string' && name !== '') meta(obj).labels = { ...(obj.metadata?.labels ?? {}), [METADATA_NAME_LABEL]: name };
  setDefault(child(obj, 'status'), 'phase', 'Active');
}

const namespaceStrategy: Strategy = composeStrategy(
  defaulting(defaultNamespace),
  {
    prepareForCreate(obj) {
      obj.status = { phase: 'Active' };
      const spec = child(obj, 'spec');
      const finalizers = (arrAt(spec, 'finalizers') ?? []).slice();
      if (!finalizers.includes('kubernetes')) finalizers.push('kubernetes');
      spec.finalizers = finalizers;
    },
    prepareForUpdate(obj, old) {
      const spec = child(obj, 'spec');
      const oldFinalizers = getIn(old, ['spec', 'finalizers']);
      if (oldFinalizers === undefined) delete spec.finalizers;
      else spec.finalizers = clone(oldFinalizers);
      keepStatus(obj, old);
    },
    beforeDelete: namespaceDelete,
    // ShouldDeleteNamespaceDuringUpdate: the namespace controller must have finalized it too.
    canCompleteDeletion: (obj) => (arrAt(objAt(obj, 'spec'), 'finalizers') ?? []).length === 0,
  },
);

/** The standard finalizer names a namespace's spec.finalizers may hold unqualified (helper.IsStandardFinalizerName). */
const STANDARD_FINALIZERS = ['kubernetes', ORPHAN_FINALIZER, FOREGROUND_FINALIZER];

/**
 * namespaceFinalizeStrategy (FinalizeREST): spec.finalizers and metadata change, status stays;
 * ValidateNamespaceFinalizeUpdate checks each finalizer name. Emptying spec.finalizers of a
 * terminating namespace completes its deletion, as any update that leaves nothing to wait for.
 */
const namespaceFinalizeStrategy: Strategy = composeStrategy(defaulting(defaultNamespace), keepFromStored('status'), {
  validateUpdate(obj) {
    const finalizers = (arrAt(objAt(obj, 'spec'), 'finalizers') ?? []) as unknown[];
    return finalizers.flatMap((f, i) => {
      const name = goString(f);
      const path = `spec.finalizers[${i}]`;
      const errs = isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
      if (!name.includes('/') && !STANDARD_FINALIZERS.includes(name)) errs.push(fieldError.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
      return errs;
    });
  },
});

/** NamespaceLifecycle admission: these namespaces are never deleted. */
export const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];
const NAMESPACES = { group: '', resource: 'namespaces' };

/**
 * pkg/registry/core/namespace/storage.REST.Delete: the first delete only starts termination
 * (deletionTimestamp, phase Terminating, GC finalizers); later deletes answer the namespace
 * unchanged until the namespace controller has emptied and finalized it.
 */
function namespaceDelete(existing: StoredObject, options: DeleteOptions, now: Date): DeletionOutcome | undefined {
  const name = existing.metadata.name;
  checkWrappedPreconditions(NAMESPACES, existing, options);
  if (IMMORTAL_NAMESPACES.includes(name)) throw forbidden(NAMESPACES, name, 'this namespace may not be deleted');
  if (!existing.metadata.deletionTimestamp) {
    const ns = structuredClone(existing) as KubeObject;
    const m = ns.metadata!;
    m.deletionTimestamp = formatTimestamp(now);
    child(ns, 'status').phase = 'Terminating';
    const current = m.finalizers ?? [];
    const orphan = options.orphanDependents ?? (options.propagationPolicy !== undefined ? options.propagationPolicy === 'Orphan' : current.includes(ORPHAN_FINALIZER));
    const foreground =
      options.orphanDependents !== undefined ? !options.orphanDependents : options.propagationPolicy !== undefined ? options.propagationPolicy === 'Foreground' : current.includes(FOREGROUND_FINALIZER);
    if (orphan !== current.includes(ORPHAN_FINALIZER) || foreground !== current.includes(FOREGROUND_FINALIZER)) {
      m.finalizers = [...current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER), ...(orphan ? [ORPHAN_FINALIZER] : []), ...(foreground ? [FOREGROUND_FINALIZER] : [])];
    }
    return { kind: 'update', object: ns };
  }
  if ((arrAt(objAt(existing, 'spec'), 'finalizers') ?? []).length) return { kind: 'pending' };
  return undefined;
}

function keepStatus(obj: KubeObject, old: KubeObject): void {
  if (old.status === undefined) delete obj.status;
  else obj.status = clone(old.status);
}

// ---- ConfigMap and Secret (pkg/apis/core/validation/validation.go) ----

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_MAP_KEY_MSG = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
const configMapKeyRe = new RegExp(`^${CONFIG_MAP_KEY_FMT}$`);

/** validation.IsConfigMapKey. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push('must be no more than 253 characters');
  if (!configMapKeyRe.test(value)) errs.push(regexError(CONFIG_MAP_KEY_MSG, CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

const stringMap = (obj: KubeObject, key: string): JsonObject => objAt(obj, key) ?? {};
const valueBytes = (v: unknown): number => (typeof v === 'string' ? byteLength(v) : 0);
const base64Bytes = (v: unknown): number => (typeof v === 'string' ? decodedLength(v) : 0);

function validateConfigMap(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = stringMap(obj, 'data');
  const binaryData = stringMap(obj, 'binaryData');
  let total = 0;
  for (const key of sortedKeys(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(fieldPath.key('data', key), key, msg));
    if (Object.hasOwn(binaryData, key)) errs.push(fieldError.invalid(fieldPath.key('data', key), key, 'duplicate of key present in binaryData'));
    total += valueBytes(data[key]);
  }
  for (const key of sortedKeys(binaryData)) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(fieldPath.key('binaryData', key), key, msg));
    total += base64Bytes(binaryData[key]);
  }
  // The real code passes field.NewPath(""), so the error has an empty field.
  if (total > MAX_SECRET_SIZE) errs.push(fieldError.tooLong('', MAX_SECRET_SIZE));
  return errs;
}

const IMMUTABLE_MSG = 'field is immutable when `immutable` is set';

function validateConfigMapUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (old.immutable === true) {
    if (obj.immutable !== true) errs.push(fieldError.forbidden('immutable', IMMUTABLE_MSG));
    if (!semanticEqual(obj.data, old.data)) errs.push(fieldError.forbidden('data', IMMUTABLE_MSG));
    if (!semanticEqual(obj.binaryData, old.binaryData)) errs.push(fieldError.forbidden('binaryData', IMMUTABLE_MSG));
  }
  return [...errs, ...validateConfigMap(obj)];
}

/** SetDefaults_Secret, and Convert_v1_Secret_To_core_Secret: stringData overwrites data. */
function defaultSecret(obj: KubeObject): void {
  setDefault(obj, 'type', 'Opaque');
  const stringData = objAt(obj, 'stringData');
  if (stringData && Object.keys(stringData).length > 0) {
    const data = child(obj, 'data');
    for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(typeof v === 'string' ? v : '', 'utf8').toString('base64');
  }
  delete obj.stringData;
}

function validateSecret(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = stringMap(obj, 'data');
  let total = 0;
  for (const key of sortedKeys(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(fieldError.invalid(fieldPath.key('data', key), key, msg));
    total += base64Bytes(data[key]);
  }
  if (total > MAX_SECRET_SIZE) errs.push(fieldError.tooLong('data', MAX_SECRET_SIZE));
  const required = (key: string) => fieldError.required(fieldPath.key('data', key));
  switch (obj.type) {
    case 'kubernetes.io/service-account-token':
      if (!obj.metadata?.annotations?.['kubernetes.io/service-account.name']) {
        errs.push(fieldError.required(fieldPath.key('metadata.annotations', 'kubernetes.io/service-account.name')));
      }
      break;
    case 'kubernetes.io/dockercfg':
      if (!('.dockercfg' in data)) errs.push(required('.dockercfg'));
      break;
    case 'kubernetes.io/dockerconfigjson':
      if (!('.dockerconfigjson' in data)) errs.push(required('.dockerconfigjson'));
      break;
    case 'kubernetes.io/basic-auth':
      if (!('username' in data) && !('password' in data)) errs.push(required('username'), required('password'));
      break;
    case 'kubernetes.io/ssh-auth':
      if (base64Bytes(data['ssh-privatekey']) === 0) errs.push(required('ssh-privatekey'));
      break;
    case 'kubernetes.io/tls':
      if (!('tls.crt' in data)) errs.push(required('tls.crt'));
      if (!('tls.key' in data)) errs.push(required('tls.key'));
      break;
  }
  return errs;
}

function validateSecretUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if ((obj.type ?? '') !== (old.type ?? '')) errs.push(fieldError.invalid('type', obj.type ?? '', 'field is immutable'));
  if (old.immutable === true) {
    if (obj.immutable !== true) errs.push(fieldError.forbidden('immutable', IMMUTABLE_MSG));
    if (!semanticEqual(obj.data, old.data)) errs.push(fieldError.forbidden('data', IMMUTABLE_MSG));
  }
  return [...errs, ...validateSecret(obj)];
}

// ---- Pod (pkg/registry/core/pod/strategy.go) ----

function defaultPod(obj: KubeObject): void {
  const spec = objAt(obj, 'spec');
  if (spec) defaultPodSpec(spec);
  defaultPodOnly(obj);
}

/**
 * podStrategy.CheckGracefulDelete: the requested period, else the pod's own; 0 for a pod that was
 * never scheduled or has already finished.
 */
function podGracePeriod(pod: KubeObject, requested: number | undefined): number {
  let period = requested ?? (getIn(pod, ['spec', 'terminationGracePeriodSeconds']) as number | undefined) ?? 0;
  if (!goString(getIn(pod, ['spec', 'nodeName']))) period = 0;
  const phase = getIn(pod, ['status', 'phase']);
  if (phase === 'Failed' || phase === 'Succeeded') period = 0;
  return period < 0 ? 1 : period;
}

function podStrategy(ctx: BuiltinContext): Strategy {
  return composeStrategy(
    defaulting(defaultPod),
    {
      prepareForCreate(obj) {
        obj.status = initialPodStatus(obj, ctx.now);
        // mutatePodAffinity, mutateTopologySpreadConstraints: before validation, as Go runs them.
        mergeMatchLabelKeys(obj);
      },
      prepareForUpdate: keepStatus,
      checkGracefulDelete: podGracePeriod,
      warnings(obj, old) {
        // WarningsOnCreate only; updates skip warnings on purpose.
        if (old) return [];
        const msgs = isDNS1123Label(goString(obj.metadata?.name));
        return msgs.length
          ? [`metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`]
          : [];
      },
    },
    // updatePodGeneration: any PodSpec change bumps generation (no feature gate in 1.36).
    generation(),
    // ValidatePodCreate and ValidatePodUpdate (the spec rules; metadata is the registry's).
    { validate: validatePodCreate, validateUpdate: validatePodUpdate },
  );
}

/**
 * podStatusStrategy: spec, ownerReferences (old kubelets corrupted them) and deletionTimestamp
 * come from the stored pod; a cleared qosClass or observedGeneration is backfilled, and the QoS
 * class may not change.
 */
const podStatusStrategy: Strategy = composeStrategy(defaulting(defaultPod), keepFromStored('spec', 'metadata.ownerReferences', 'metadata.deletionTimestamp'), {
  prepareForUpdate(obj, old) {
    const status = child(obj, 'status');
    const oldStatus = objAt(old, 'status') ?? {};
    if (unset(status.qosClass) && !unset(oldStatus.qosClass)) status.qosClass = oldStatus.qosClass;
    // preserveOldObservedGeneration: a request that clears observedGeneration keeps the old one.
    if (unset(status.observedGeneration) || status.observedGeneration === 0) {
      if (!unset(oldStatus.observedGeneration)) status.observedGeneration = oldStatus.observedGeneration;
    }
  },
  // ValidatePodStatusUpdate's "Pod QoS is immutable" (the rest of it is not ported).
  validateUpdate(obj, old) {
    const qos = goString(getIn(obj, ['status', 'qosClass']));
    const oldQos = goString(getIn(old, ['status', 'qosClass']));
    return qos === oldQos ? [] : [fieldError.invalid('status.qosClass', qos, FIELD_IMMUTABLE_ERROR_MSG)];
  },
});

/** The Pod's primary IP as ToSelectableFields reads it (internal PodIPs[0], which v1 podIP feeds). */
function podIP(obj: KubeObject): string {
  const ips = arrAt(objAt(obj, 'status'), 'podIPs');
  const first = ips?.[0];
  if (isPlainObject(first)) return goString(first.ip);
  return goString(getIn(obj, ['status', 'podIP']));
}

const podFieldSelectors: Record<string, (obj: KubeObject) => string> = {
  'metadata.name': metadataName,
  'metadata.namespace': metadataNamespace,
  'spec.nodeName': (obj) => goString(getIn(obj, ['spec', 'nodeName'])),
  // Old v1 clients send spec.host; the conversion maps it to spec.nodeName.
  'spec.host': (obj) => goString(getIn(obj, ['spec', 'nodeName'])),
  'spec.restartPolicy': (obj) => goString(getIn(obj, ['spec', 'restartPolicy'])),
  'spec.schedulerName': (obj) => goString(getIn(obj, ['spec', 'schedulerName'])),
  'spec.serviceAccountName': (obj) => goString(getIn(obj, ['spec', 'serviceAccountName'])) || goString(getIn(obj, ['spec', 'serviceAccount'])),
  'spec.hostNetwork': (obj) => goBool(getIn(obj, ['spec', 'hostNetwork'])),
  'status.phase': (obj) => goString(getIn(obj, ['status', 'phase'])),
  'status.podIP': podIP,
  // Accepted by the conversion function but absent from ToSelectableFields, so it reads as "".
  'status.podIPs': () => '',
  'status.nominatedNodeName': (obj) => goString(getIn(obj, ['status', 'nominatedNodeName'])),
};

// ---- ServiceAccount, Endpoints ----

/** cleanSecretReferences: only the name of each referenced secret is kept. */
function cleanSecretReferences(obj: KubeObject): void {
  const secrets = arrAt(obj, 'secrets');
  if (!secrets) return;
  obj.secrets = secrets.map((s) => (isPlainObject(s) && !unset(s.name) ? { name: s.name } : {}));
}

const ENDPOINTS_DEPRECATED = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

/** SetDefaults_Endpoints. (The strategy no longer repacks subsets in 1.36; Canonicalize is empty.) */
function defaultEndpoints(obj: KubeObject): void {
  for (const subset of (arrAt(obj, 'subsets') ?? []).filter(isPlainObject)) {
    for (const port of (arrAt(subset, 'ports') ?? []).filter(isPlainObject)) setDefault(port, 'protocol', 'TCP');
  }
}

// ---- Event (pkg/registry/core/event, pkg/apis/core/validation/events.go) ----

/** An Event in the internal field names validation messages use, whichever API it came through. */
export interface EventView {
  namespace: string;
  involvedObjectNamespace: string;
  eventTimeSet: boolean;
  reportingController: string;
  reportingInstance: string;
  action: string;
  reason: string;
  message: string;
}

export function coreEventView(obj: KubeObject): EventView {
  return {
    namespace: goString(obj.metadata?.namespace),
    involvedObjectNamespace: goString(getIn(obj, ['involvedObject', 'namespace'])),
    eventTimeSet: !unset(obj.eventTime),
    reportingController: goString(obj.reportingComponent),
    reportingInstance: goString(obj.reportingInstance),
    action: goString(obj.action),
    reason: goString(obj.reason),
    message: goString(obj.message),
  };
}

/** legacyValidateEvent: what every Event must pass, whichever API version wrote it. */
export function legacyValidateEvent(e: EventView): FieldError[] {
  const errs: FieldError[] = [];
  const mismatch = () => fieldError.invalid('involvedObject.namespace', e.involvedObjectNamespace, 'does not match event.namespace');
  if (!e.eventTimeSet) {
    if (e.involvedObjectNamespace === '') {
      if (e.namespace !== '' && e.namespace !== 'default') errs.push(mismatch());
    } else if (e.namespace !== e.involvedObjectNamespace) {
      errs.push(mismatch());
    }
  } else {
    if (e.involvedObjectNamespace === '' && e.namespace !== 'default' && e.namespace !== 'kube-system') errs.push(mismatch());
    if (e.reportingController === '') errs.push(fieldError.required('reportingController'));
    for (const msg of isQualifiedName(e.reportingController)) errs.push(fieldError.invalid('reportingController', e.reportingController, msg));
    if (e.reportingInstance === '') errs.push(fieldError.required('reportingInstance'));
    if (byteLength(e.reportingInstance) > 128) errs.push(fieldError.invalid('reportingInstance', '', 'can have at most 128 characters'));
    if (e.action === '') errs.push(fieldError.required('action'));
    if (byteLength(e.action) > 128) errs.push(fieldError.invalid('action', '', 'can have at most 128 characters'));
    if (e.reason === '') errs.push(fieldError.required('reason'));
    if (byteLength(e.reason) > 128) errs.push(fieldError.invalid('reason', '', 'can have at most 128 characters'));
    if (byteLength(e.message) > 1024) errs.push(fieldError.invalid('message', '', 'can have at most 1024 characters'));
  }
  for (const msg of isDNS1123Subdomain(e.namespace)) errs.push(fieldError.invalid('namespace', e.namespace, msg));
  return errs;
}

/** ToSelectableFields' `source`: the legacy component, else the reporting controller. */
const eventSource = (component: unknown, reporting: unknown) => goString(component) || goString(reporting);

const coreEventFieldSelectors: Record<string, (obj: KubeObject) => string> = {
  'metadata.name': metadataName,
  'metadata.namespace': metadataNamespace,
  ...Object.fromEntries(
    ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map((f) => [
      `involvedObject.${f}`,
      (obj: KubeObject) => goString(getIn(obj, ['involvedObject', f])),
    ]),
  ),
  reason: (obj) => goString(obj.reason),
  reportingComponent: (obj) => goString(obj.reportingComponent),
  source: (obj) => eventSource(getIn(obj, ['source', 'component']), obj.reportingComponent),
  type: (obj) => goString(obj.type),
};

// ---- Node, PersistentVolumeClaim ----

/** SetDefaults_NodeStatus and the NodeSpec podCIDR/podCIDRs conversion. */
function defaultNode(obj: KubeObject): void {
  const spec = objAt(obj, 'spec');
  if (spec) {
    const cidrs = (arrAt(spec, 'podCIDRs') ?? []).filter((v): v is string => typeof v === 'string');
    const cidr = goString(spec.podCIDR);
    // PodCIDR is authoritative when both are set and differ (older clients).
    if (cidr !== '' && (cidrs.length === 0 || cidrs[0] !== cidr)) spec.podCIDRs = [cidr];
    const first = (arrAt(spec, 'podCIDRs') ?? [])[0];
    if (typeof first === 'string') spec.podCIDR = first;
  }
  const status = objAt(obj, 'status');
  if (status && isPlainObject(status.capacity) && (status.allocatable === undefined || status.allocatable === null)) {
    status.allocatable = clone(status.capacity);
  }
}

/** NodeStatus' non-pointer structs and their fields without omitempty. */
function nodeStatusShape(obj: KubeObject): void {
  zeroFields(child(obj, 'status'), {
    daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
    nodeInfo: {
      machineID: '',
      systemUUID: '',
      bootID: '',
      kernelVersion: '',
      osImage: '',
      containerRuntimeVersion: '',
      kubeletVersion: '',
      kubeProxyVersion: '',
      operatingSystem: '',
      architecture: '',
    },
  });
}

/** SetDefaults_PersistentVolumeClaim(+Spec): the phase default also fills the cleared status. */
function defaultPersistentVolumeClaim(obj: KubeObject): void {
  defaultPersistentVolumeClaimSpec(child(obj, 'spec'));
  setDefault(child(obj, 'status'), 'phase', 'Pending');
}
