// The ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount/admission.go): a pod
// created without `spec.serviceAccountName` runs as `default`; the ServiceAccount it names must
// exist (403 otherwise); unless the pod or its ServiceAccount turns automounting off, every
// container and init container mounts a projected `kube-api-access-<suffix>` volume (a bound
// token, the cluster CA from `kube-root-ca.crt`, the namespace) at
// /var/run/secrets/kubernetes.io/serviceaccount; a pod with no imagePullSecrets takes its
// ServiceAccount's. Mirror pods may reference neither ServiceAccounts nor secrets, and a
// ServiceAccount annotated `kubernetes.io/enforce-mountable-secrets: "true"` limits the secrets
// its pods (and ephemeral containers added later) reference.
//
// The real plugin looks `default` up ten times, 100–200 ms apart, because the ServiceAccount
// controller creates it shortly after the namespace. Here the lookup waits for that controller
// to finish what it has queued (`whenServiceAccountsSynced`) instead: a pod created right after
// its namespace is admitted every time, without sleeping.
import { isPlainObject, type KubeObject } from '../apis/object.ts';
import { generateName } from '../registry/generate-name.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../registry/admission.ts';
import { WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS } from '../registry/subresources/serviceaccount-token.ts';
import type { StoredObject } from '../apis/object.ts';
import { admissionForbidden } from './forbidden.ts';
import type { AdmissionServices } from './services.ts';

export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';
export const SERVICE_ACCOUNT_VOLUME_NAME = 'kube-api-access';
export const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const ENFORCE_MOUNTABLE_SECRETS_ANNOTATION = 'kubernetes.io/enforce-mountable-secrets';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** corev1.ProjectedVolumeSourceDefaultMode, 0644. */
const PROJECTED_VOLUME_SOURCE_DEFAULT_MODE = 0o644;

type Json = Record<string, unknown>;

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** TokenVolumeSource: the projected source every automounted pod gets, defaults written out (#104464). */
export function tokenVolumeSource(): Json {
  return {
    defaultMode: PROJECTED_VOLUME_SOURCE_DEFAULT_MODE,
    sources: [
      { serviceAccountToken: { expirationSeconds: WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

export function serviceAccountPlugin(services: AdmissionServices): AdmissionPlugin {
  const lookup = async (namespace: string, name: string): Promise<StoredObject | undefined> => {
    const key = `${namespace}/${name}`;
    let sa = services.store.get('/serviceaccounts', key);
    if (!sa && name === DEFAULT_SERVICE_ACCOUNT_NAME) {
      await services.whenServiceAccountsSynced?.();
      sa = services.store.get('/serviceaccounts', key);
    }
    return sa;
  };
  /** getServiceAccount, or the 403 both phases answer when it is missing. */
  const serviceAccountFor = async (a: AdmissionAttributes, name: string): Promise<StoredObject> => {
    const namespace = a.namespace ?? '';
    const sa = await lookup(namespace, name);
    if (!sa) throw admissionForbidden(a, `error looking up service account ${namespace}/${name}: serviceaccount ${JSON.stringify(name)} not found`);
    return sa;
  };
  /**
   * NamespaceLifecycle runs first in the real chain, so a pod for a namespace that is missing or
   * terminating never reaches this plugin; the registry checks that after mutating admission, so
   * this plugin leaves such pods to it (404 NotFound, 403 NamespaceTerminating).
   */
  const namespaceAdmits = (a: AdmissionAttributes): boolean => {
    const ns = services.store.get('/namespaces', a.namespace ?? '');
    return !!ns && !ns.metadata.deletionTimestamp && (ns as { status?: { phase?: string } }).status?.phase !== 'Terminating';
  };

  return {
    name: 'ServiceAccount',
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',

    async admit(a) {
      const pod = podOf(a);
      if (!pod || a.operation !== 'CREATE' || !namespaceAdmits(a)) return;
      const spec = specOf(pod);
      // Mirror pods are not changed, only checked (Admit returns Validate's answer).
      if (!isMirrorPod(pod)) {
        if (!str(spec.serviceAccountName)) {
          spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT_NAME;
          // v1's deprecated alias is written from serviceAccountName on every encoding
          // (Convert_core_PodSpec_To_v1_PodSpec); the pod was decoded before this plugin ran.
          spec.serviceAccount = DEFAULT_SERVICE_ACCOUNT_NAME;
        }
        const sa = await serviceAccountFor(a, str(spec.serviceAccountName));
        if (shouldAutomount(sa, spec)) mountServiceAccountToken(spec, () => generateName(`${SERVICE_ACCOUNT_VOLUME_NAME}-`, services.random));
        // Go copies the ServiceAccount's when the pod's list is empty (an empty list is not written).
        if (!(Array.isArray(spec.imagePullSecrets) && spec.imagePullSecrets.length > 0)) {
          const pullSecrets = list((sa as Json).imagePullSecrets).map((s) => ({ name: str(s.name) }));
          if (pullSecrets.length) spec.imagePullSecrets = pullSecrets;
        }
      }
      // Admit ends with Validate, so its refusals come from the mutating phase (a generateName pod
      // has no name yet); the validating phase runs it again on the final object.
      await validateCreate(a, pod, spec);
    },

    async validate(a) {
      const pod = podOf(a);
      if (!pod) return;
      const spec = isPlainObject(pod.spec) ? (pod.spec as Json) : {};
      if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') {
        const sa = await requireServiceAccount(a, pod, spec);
        if (enforcesMountableSecrets(sa)) {
          const why = limitContainerSecretReferences(sa, list(spec.ephemeralContainers), 'ephemeral container');
          if (why) throw admissionForbidden(a, why);
        }
        return;
      }
      if (a.operation === 'CREATE') await validateCreate(a, pod, spec);
    },
  };

  /** Validate for a create: mirror pods' limits, the ServiceAccount's existence, mountable secrets. */
  async function validateCreate(a: AdmissionAttributes, pod: KubeObject, spec: Json): Promise<void> {
    if (isMirrorPod(pod)) {
      const why = mirrorPodRefusal(spec);
      if (why) throw admissionForbidden(a, why);
      return;
    }
    const sa = await requireServiceAccount(a, pod, spec);
    if (enforcesMountableSecrets(sa)) {
      const why = limitSecretReferences(sa, spec);
      if (why) throw admissionForbidden(a, why);
    }
  }

  /** Validate's and limitEphemeralContainerSecretReferences' shared start. */
  async function requireServiceAccount(a: AdmissionAttributes, pod: KubeObject, spec: Json): Promise<StoredObject> {
    const name = str(spec.serviceAccountName);
    if (!name) throw admissionForbidden(a, `no service account specified for pod ${a.namespace ?? ''}/${pod.metadata?.name ?? ''}`);
    return serviceAccountFor(a, name);
  }
}

/** shouldIgnore: pods and their ephemeralcontainers subresource only. */
function podOf(a: AdmissionAttributes): KubeObject | undefined {
  if (a.type.group !== '' || a.type.plural !== 'pods') return undefined;
  if (a.subresource !== '' && a.subresource !== 'ephemeralcontainers') return undefined;
  return a.object && isPlainObject(a.object) ? a.object : undefined;
}

function specOf(pod: KubeObject): Json {
  if (!isPlainObject(pod.spec)) pod.spec = {};
  return pod.spec as Json;
}

function isMirrorPod(pod: KubeObject): boolean {
  const annotations = pod.metadata?.annotations;
  return isPlainObject(annotations) && Object.hasOwn(annotations, MIRROR_POD_ANNOTATION);
}

/** shouldAutomount: the pod's preference, then the ServiceAccount's, else true. */
function shouldAutomount(sa: StoredObject, spec: Json): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  const fromSa = (sa as Json).automountServiceAccountToken;
  if (typeof fromSa === 'boolean') return fromSa;
  return true;
}

/** mountServiceAccountToken. */
function mountServiceAccountToken(spec: Json, newVolumeName: () => string): void {
  const volumes = Array.isArray(spec.volumes) ? (spec.volumes as unknown[]) : undefined;
  const existing = list(volumes).find((v) => str(v.name).startsWith(`${SERVICE_ACCOUNT_VOLUME_NAME}-`));
  const volumeName = existing ? str(existing.name) : newVolumeName();
  let needsTokenVolume = false;
  for (const field of ['initContainers', 'containers']) {
    for (const container of list(spec[field])) {
      const mounts = Array.isArray(container.volumeMounts) ? (container.volumeMounts as unknown[]) : undefined;
      // An existing mount at the default path keeps the token out of that container.
      if (list(mounts).some((m) => m.mountPath === DEFAULT_API_TOKEN_MOUNT_PATH)) continue;
      const mount = { name: volumeName, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH };
      if (mounts) mounts.push(mount);
      else container.volumeMounts = [mount];
      needsTokenVolume = true;
    }
  }
  if (existing || !needsTokenVolume) return;
  const volume = { name: volumeName, projected: tokenVolumeSource() };
  if (volumes) volumes.push(volume);
  else spec.volumes = [volume];
}

/** The strings strconv.ParseBool reads as true. */
const GO_TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];

/** The annotation read with strconv.ParseBool: only its true spellings enforce (unparsable counts as false). */
function enforcesMountableSecrets(sa: StoredObject): boolean {
  const value = sa.metadata.annotations?.[ENFORCE_MOUNTABLE_SECRETS_ANNOTATION];
  return value !== undefined && GO_TRUE.includes(value);
}

/** limitSecretReferences: the first reference the ServiceAccount does not allow, in words. */
function limitSecretReferences(sa: StoredObject, spec: Json): string | undefined {
  const saName = sa.metadata.name;
  const mountable = new Set(list((sa as Json).secrets).map((s) => str(s.name)));
  for (const volume of list(spec.volumes)) {
    if (!isPlainObject(volume.secret)) continue;
    const secretName = str(volume.secret.secretName);
    if (!mountable.has(secretName)) return `volume with secret.secretName="${secretName}" is not allowed because service account ${saName} does not reference that secret`;
  }
  const why = limitContainerSecretReferences(sa, list(spec.initContainers), 'init container') ?? limitContainerSecretReferences(sa, list(spec.containers), 'container');
  if (why) return why;
  const pullSecrets = new Set(list((sa as Json).imagePullSecrets).map((s) => str(s.name)));
  const refs = list(spec.imagePullSecrets);
  for (let i = 0; i < refs.length; i++) {
    const name = str(refs[i]!.name);
    if (!pullSecrets.has(name)) return `imagePullSecrets[${i}].name="${name}" is not allowed because service account ${saName} does not reference that imagePullSecret`;
  }
  return undefined;
}

function limitContainerSecretReferences(sa: StoredObject, containers: Json[], what: string): string | undefined {
  const saName = sa.metadata.name;
  const mountable = new Set(list((sa as Json).secrets).map((s) => str(s.name)));
  for (const container of containers) {
    for (const env of list(container.env)) {
      const ref = isPlainObject(env.valueFrom) && isPlainObject(env.valueFrom.secretKeyRef) ? env.valueFrom.secretKeyRef : undefined;
      if (ref && !mountable.has(str(ref.name))) {
        return `${what} ${str(container.name)} with envVar ${str(env.name)} referencing secret.secretName="${str(ref.name)}" is not allowed because service account ${saName} does not reference that secret`;
      }
    }
    for (const envFrom of list(container.envFrom)) {
      if (isPlainObject(envFrom.secretRef) && !mountable.has(str(envFrom.secretRef.name))) {
        return `${what} ${str(container.name)} with envFrom referencing secret.secretName="${str(envFrom.secretRef.name)}" is not allowed because service account ${saName} does not reference that secret`;
      }
    }
  }
  return undefined;
}

/** Validate's mirror-pod rules; VisitPodSecretNames over every container kind and volume source. */
function mirrorPodRefusal(spec: Json): string | undefined {
  if (str(spec.serviceAccountName)) return 'a mirror pod may not reference service accounts';
  if (referencesSecrets(spec)) return 'a mirror pod may not reference secrets';
  for (const volume of list(spec.volumes)) {
    if (isPlainObject(volume.projected) && list(volume.projected.sources).some((s) => s.serviceAccountToken != null)) {
      return 'a mirror pod may not use ServiceAccountToken volume projections';
    }
  }
  return undefined;
}

/** Volume sources naming a Secret: VisitPodSecretNames visits a source's name whenever the reference is there. */
const SECRET_VOLUME_REFS: Array<[source: string, ref: string | undefined]> = [
  ['secret', undefined],
  ['azureFile', undefined],
  ['cephfs', 'secretRef'],
  ['cinder', 'secretRef'],
  ['flexVolume', 'secretRef'],
  ['rbd', 'secretRef'],
  ['scaleIO', 'secretRef'],
  ['iscsi', 'secretRef'],
  ['storageos', 'secretRef'],
  ['csi', 'nodePublishSecretRef'],
];

function referencesSecrets(spec: Json): boolean {
  if (list(spec.imagePullSecrets).length > 0) return true;
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const container of list(spec[field])) {
      if (list(container.envFrom).some((e) => isPlainObject(e.secretRef))) return true;
      if (list(container.env).some((e) => isPlainObject(e.valueFrom) && isPlainObject(e.valueFrom.secretKeyRef))) return true;
    }
  }
  for (const volume of list(spec.volumes)) {
    for (const [source, ref] of SECRET_VOLUME_REFS) {
      const v = volume[source];
      if (isPlainObject(v) && (ref === undefined || isPlainObject(v[ref]))) return true;
    }
    if (isPlainObject(volume.projected) && list(volume.projected.sources).some((s) => isPlainObject(s.secret))) return true;
  }
  return false;
}
