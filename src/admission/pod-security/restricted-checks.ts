// The restricted checks of pod-security-admission v0.36.2 (policy/check_*.go), with their versions,
// the baseline checks each one overrides, and their exact wording.
import { CAPABILITIES_BASELINE_ID, HOST_PATH_VOLUMES_ID, PROC_MOUNT_ID, procMount_1_0, SECCOMP_BASELINE_ID, validSeccompType } from './baseline-checks.ts';
import { ALLOWED, forbidden, joinQuote, pluralize, sortedSet, type Check, type CheckPod, type VersionedCheck } from './check.ts';
import { isWindowsPod, nameOf, relaxForUserNamespace, visitContainers, type PodSpecView } from './pod-view.ts';

const containersPhrase = (names: readonly string[]) => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

/** Pods a check stops applying to from some version on. */
interface Exemption {
  fromMinor: number;
  exempt: (spec: PodSpecView) => boolean;
}

/** From v1.25 a pod with `os.name: windows` passes the checks that do not apply to Windows. */
const WINDOWS_PODS: Exemption = { fromMinor: 25, exempt: isWindowsPod };

/** From v1.35 a pod in a user namespace (`hostUsers: false`) passes the checks about root. */
const USER_NAMESPACE_PODS: Exemption = { fromMinor: 35, exempt: relaxForUserNamespace };

/** A restricted check with two revisions: `first`, then the same check passing the exempted pods. */
function withExemption(id: string, first: VersionedCheck, { fromMinor, exempt }: Exemption): Check {
  const { checkPod } = first;
  const relaxed: CheckPod = (metadata, spec) => (exempt(spec) ? ALLOWED : checkPod(metadata, spec));
  return { id, level: 'restricted', versions: [first, { ...first, minimumMinor: fromMinor, checkPod: relaxed }] };
}

// check_allowPrivilegeEscalation.go
const allowPrivilegeEscalation_1_8: CheckPod = (_metadata, spec) => {
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.allowPrivilegeEscalation !== false) badContainers.push(nameOf(c));
  });
  if (!badContainers.length) return ALLOWED;
  return forbidden('allowPrivilegeEscalation != false', `${containersPhrase(badContainers)} must set securityContext.allowPrivilegeEscalation=false`);
};

// check_capabilities_restricted.go
const capabilitiesRestricted_1_22: CheckPod = (_metadata, spec) => {
  const missingDropAll: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCapabilities: string[] = [];
  visitContainers(spec, (c) => {
    const capabilities = c.securityContext?.capabilities;
    if (!capabilities) {
      missingDropAll.push(nameOf(c));
      return;
    }
    if (!(capabilities.drop ?? []).includes('ALL')) missingDropAll.push(nameOf(c));
    let added = false;
    for (const cap of capabilities.add ?? []) {
      if (cap !== 'NET_BIND_SERVICE') {
        added = true;
        forbiddenCapabilities.push(cap);
      }
    }
    if (added) addingForbidden.push(nameOf(c));
  });
  const details: string[] = [];
  if (missingDropAll.length) details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length) {
    details.push(`${containersPhrase(addingForbidden)} must not include ${joinQuote(sortedSet(forbiddenCapabilities))} in securityContext.capabilities.add`);
  }
  return details.length ? forbidden('unrestricted capabilities', details.join('; ')) : ALLOWED;
};

// check_restrictedVolumes.go: the allowed sources, then the restricted ones in the order Go's
// switch names them (the first one set names the volume's type).
const ALLOWED_VOLUME_SOURCES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];
const RESTRICTED_VOLUME_SOURCES = [
  'hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs',
  'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'fc', 'azureFile',
  'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO', 'storageos',
];

const restrictedVolumes_1_0: CheckPod = (_metadata, spec) => {
  const badVolumes: string[] = [];
  const badTypes: string[] = [];
  for (const volume of spec.volumes ?? []) {
    if (ALLOWED_VOLUME_SOURCES.some((source) => volume[source] != null)) continue;
    badVolumes.push(nameOf(volume));
    badTypes.push(RESTRICTED_VOLUME_SOURCES.find((source) => volume[source] != null) ?? 'unknown');
  }
  if (!badVolumes.length) return ALLOWED;
  const types = sortedSet(badTypes);
  return forbidden(
    'restricted volume types',
    `${pluralize('volume', 'volumes', badVolumes.length)} ${joinQuote(badVolumes)} ${pluralize('uses', 'use', badVolumes.length)} ${pluralize('restricted volume type', 'restricted volume types', types.length)} ${joinQuote(types)}`,
  );
};

// check_runAsNonRoot.go
const runAsNonRoot_1_0: CheckPod = (_metadata, spec) => {
  const badSetters: string[] = [];
  let podRunAsNonRoot = false;
  const podValue = spec.securityContext?.runAsNonRoot;
  if (podValue != null) {
    if (!podValue) badSetters.push('pod');
    else podRunAsNonRoot = true;
  }
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  visitContainers(spec, (c) => {
    const value = c.securityContext?.runAsNonRoot;
    if (value != null) {
      if (!value) explicitlyBad.push(nameOf(c));
    } else if (!podRunAsNonRoot) {
      implicitlyBad.push(nameOf(c));
    }
  });
  if (explicitlyBad.length) badSetters.push(containersPhrase(explicitlyBad));
  if (badSetters.length) return forbidden('runAsNonRoot != true', `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicitlyBad.length) return forbidden('runAsNonRoot != true', `pod or ${containersPhrase(implicitlyBad)} must set securityContext.runAsNonRoot=true`);
  return ALLOWED;
};

// check_runAsUser.go
const runAsUser_1_23: CheckPod = (_metadata, spec) => {
  const badSetters: string[] = [];
  if (spec.securityContext?.runAsUser === 0) badSetters.push('pod');
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.runAsUser === 0) badContainers.push(nameOf(c));
  });
  if (badContainers.length) badSetters.push(containersPhrase(badContainers));
  return badSetters.length ? forbidden('runAsUser=0', `${badSetters.join(' and ')} must not set runAsUser=0`) : ALLOWED;
};

// check_seccompProfile_restricted.go
const seccompProfileRestricted_1_19: CheckPod = (_metadata, spec) => {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  let podSeccompSet = false;
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile) {
    if (!validSeccompType(podProfile.type)) {
      badSetters.push('pod');
      badValues.push(podProfile.type ?? '');
    } else {
      podSeccompSet = true;
    }
  }
  const explicitlyBad: string[] = [];
  const implicitlyBad: string[] = [];
  visitContainers(spec, (c) => {
    const profile = c.securityContext?.seccompProfile;
    if (profile) {
      if (!validSeccompType(profile.type)) {
        explicitlyBad.push(nameOf(c));
        badValues.push(profile.type ?? '');
      }
    } else if (!podSeccompSet) {
      implicitlyBad.push(nameOf(c));
    }
  });
  if (explicitlyBad.length) badSetters.push(containersPhrase(explicitlyBad));
  if (badSetters.length) {
    return forbidden('seccompProfile', `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`);
  }
  if (implicitlyBad.length) {
    return forbidden('seccompProfile', `pod or ${containersPhrase(implicitlyBad)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
  }
  return ALLOWED;
};

export const RESTRICTED_CHECKS: readonly Check[] = [
  withExemption('allowPrivilegeEscalation', { minimumMinor: 8, checkPod: allowPrivilegeEscalation_1_8 }, WINDOWS_PODS),
  withExemption('capabilities_restricted', { minimumMinor: 22, checkPod: capabilitiesRestricted_1_22, overrides: [CAPABILITIES_BASELINE_ID] }, WINDOWS_PODS),
  // From v1.35 baseline's procMount is relaxed for user-namespace pods; restricted keeps the strict one.
  { id: 'procMount_restricted', level: 'restricted', versions: [{ minimumMinor: 35, checkPod: procMount_1_0, overrides: [PROC_MOUNT_ID] }] },
  { id: 'restrictedVolumes', level: 'restricted', versions: [{ minimumMinor: 0, checkPod: restrictedVolumes_1_0, overrides: [HOST_PATH_VOLUMES_ID] }] },
  withExemption('runAsNonRoot', { minimumMinor: 0, checkPod: runAsNonRoot_1_0 }, USER_NAMESPACE_PODS),
  withExemption('runAsUser', { minimumMinor: 23, checkPod: runAsUser_1_23 }, USER_NAMESPACE_PODS),
  withExemption('seccompProfile_restricted', { minimumMinor: 19, checkPod: seccompProfileRestricted_1_19, overrides: [SECCOMP_BASELINE_ID] }, WINDOWS_PODS),
];
