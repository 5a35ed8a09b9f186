// The security parts of ValidatePodSpec (pkg/apis/core/validation/validation.go, v1.36): the pod's
// security context (validatePodSpecSecurityContext: ids, sysctls, fsGroupChangePolicy, seccomp and
// AppArmor profiles, windowsOptions, supplementalGroupsPolicy), a container's (ValidateSecurityContext),
// validateHostUsers and the OS-specific rules (validateOS, validateLinux, validateWindows).
// The v1 PodSpec keeps hostNetwork, hostPID, hostIPC, hostUsers and shareProcessNamespace beside
// securityContext; the internal type the errors are named after keeps them inside it, hence a few
// paths that name fields where v1 does not have them (spec.securityContext.shareProcessNamespace,
// spec.HostPID).
// Privileged containers are allowed, as on clusters that start kube-apiserver with
// --allow-privileged=true (kubeadm, kind and every managed offering). seLinuxChangePolicy: with
// SELinuxChangePolicy on and SELinuxMount off (beta, off by default in v1.36), only Recursive is
// allowed (pkg/api/pod/util.go useOnlyRecursiveSELinuxChangePolicy). Not ported: the relaxation to
// every policy for an update whose old spec already set one, and hostProcess pods.
import { fieldError, type FieldError } from '../../errors/field-error.ts';
import { invalidStruct } from '../../validation/meta-fields.ts';
import { isDNS1123Subdomain } from '../../validation/names.ts';
import { isPlainObject } from '../object.ts';
import { typedInternalJson } from './go-struct-diff.ts';
import { asObject } from './shared.ts';

type Json = Record<string, unknown>;
const set = (v: unknown): boolean => v !== undefined && v !== null;

const MAX_ID = 2147483647;
const ID_RANGE = `must be between 0 and ${MAX_ID}, inclusive`;
const SYSCTL_MAX_LENGTH = 253;
const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_PATTERN = `^(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}$`;
const sysctlRe = new RegExp(SYSCTL_PATTERN);
const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const FS_GROUP_CHANGE_POLICIES = ['Always', 'OnRootMismatch'];
const SUPPLEMENTAL_GROUPS_POLICIES = ['Merge', 'Strict'];
// validateSELinuxChangePolicy with AllowOnlyRecursiveSELinuxChangePolicy.
const SELINUX_CHANGE_POLICIES = ['Recursive'];
const PROC_MOUNT_TYPES = ['Default', 'Unmasked'];
const WINDOWS_FORBIDDEN = 'cannot be set for a windows pod';

/** validation.IsValidUserID / IsValidGroupID on a field. */
function idErrors(value: unknown, path: string): FieldError[] {
  if (typeof value !== 'number' || (value >= 0 && value <= MAX_ID)) return [];
  return [fieldError.invalid(path, value, ID_RANGE)];
}

/** validateLocalDescendingPath: relative, without '..'. */
function localDescendingPath(target: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(fieldError.invalid(path, target, 'must be a relative path'));
  if (target.split('/').includes('..')) errs.push(fieldError.invalid(path, target, "must not contain '..'"));
  return errs;
}

/** validateSeccompProfileField. */
function seccompProfile(value: unknown, path: string): FieldError[] {
  const profile = asObject(value);
  if (!profile) return [];
  const errs: FieldError[] = [];
  const type = typeof profile.type === 'string' ? profile.type : '';
  if (type === '') errs.push(fieldError.required(`${path}.type`, 'type is required when seccompProfile is set'));
  else if (!SECCOMP_TYPES.includes(type)) errs.push(fieldError.notSupported(`${path}.type`, type, SECCOMP_TYPES));
  if (type === 'Localhost') {
    if (typeof profile.localhostProfile !== 'string') errs.push(fieldError.required(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else errs.push(...localDescendingPath(profile.localhostProfile, `${path}.localhostProfile`));
  } else if (set(profile.localhostProfile)) {
    const json = typedInternalJson('core.v1.SeccompProfile', profile);
    errs.push(invalidStruct(`${path}.localhostProfile`, json, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

/** ValidateAppArmorProfileField. */
function appArmorProfile(value: unknown, path: string): FieldError[] {
  const profile = asObject(value);
  if (!profile) return [];
  const type = typeof profile.type === 'string' ? profile.type : '';
  const local = profile.localhostProfile;
  switch (type) {
    case 'Localhost': {
      if (typeof local !== 'string') return [fieldError.required(`${path}.localhostProfile`, 'must be set when AppArmor type is Localhost')];
      const errs: FieldError[] = [];
      const trimmed = local.trim();
      if (trimmed !== local) errs.push(fieldError.invalid(`${path}.localhostProfile`, local, 'must not be padded with whitespace'));
      else if (trimmed === '') errs.push(fieldError.required(`${path}.localhostProfile`, 'must be set when AppArmor type is Localhost'));
      if (new TextEncoder().encode(local).length > 4095) errs.push(fieldError.tooLong(`${path}.localhostProfile`, 4095));
      return errs;
    }
    case 'RuntimeDefault':
    case 'Unconfined':
      return set(local) ? [fieldError.invalid(`${path}.localhostProfile`, local, 'can only be set when AppArmor type is Localhost')] : [];
    case '':
      return [fieldError.required(`${path}.type`, 'type is required when appArmorProfile is set')];
    default:
      return [fieldError.notSupported(`${path}.type`, type, ['Localhost', 'RuntimeDefault', 'Unconfined'])];
  }
}

// validateWindowsSecurityContextOptions' patterns.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\x00-\x1f\x7f]/;
const NETBIOS_DOMAIN = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const DNS_DOMAIN = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const INVALID_USER_CHARS = /["/\\:;|=,+*?<>@[\]]/;
const ONLY_DOTS_SPACES = /^[. ]+$/;

/** validateWindowsSecurityContextOptions. */
function windowsOptions(value: unknown, path: string): FieldError[] {
  const options = asObject(value);
  if (!options) return [];
  const errs: FieldError[] = [];
  if (typeof options.gmsaCredentialSpecName === 'string') {
    errs.push(...isDNS1123Subdomain(options.gmsaCredentialSpecName).map((m) => fieldError.invalid(`${path}.gmsaCredentialSpecName`, options.gmsaCredentialSpecName, m)));
  }
  if (typeof options.gmsaCredentialSpec === 'string') {
    const length = new TextEncoder().encode(options.gmsaCredentialSpec).length;
    if (length === 0) errs.push(fieldError.invalid(`${path}.gmsaCredentialSpec`, '', 'gmsaCredentialSpec cannot be an empty string'));
    else if (length > 64 * 1024) errs.push(fieldError.invalid(`${path}.gmsaCredentialSpec`, options.gmsaCredentialSpec, 'gmsaCredentialSpec size must be under 64 KiB'));
  }
  const name = options.runAsUserName;
  if (typeof name === 'string') {
    const p = `${path}.runAsUserName`;
    const parts = name.split('\\');
    if (name.length === 0) errs.push(fieldError.invalid(p, name, 'runAsUserName cannot be an empty string'));
    else if (CONTROL_CHARS.test(name)) errs.push(fieldError.invalid(p, name, 'runAsUserName cannot contain control characters'));
    else if (parts.length > 2) errs.push(fieldError.invalid(p, name, 'runAsUserName cannot contain more than one backslash'));
    else {
      const hasDomain = parts.length === 2;
      const domain = hasDomain ? parts[0]! : '';
      const user = hasDomain ? parts[1]! : parts[0]!;
      if (domain.length >= 256) errs.push(fieldError.invalid(p, name, "runAsUserName's Domain length must be under 256 characters"));
      if (hasDomain && !(NETBIOS_DOMAIN.test(domain) || DNS_DOMAIN.test(domain))) errs.push(fieldError.invalid(p, name, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
      if (user.length === 0) errs.push(fieldError.invalid(p, name, "runAsUserName's User cannot be empty"));
      else if (user.length > 104) errs.push(fieldError.invalid(p, name, "runAsUserName's User length must not be longer than 104 characters"));
      if (ONLY_DOTS_SPACES.test(user)) errs.push(fieldError.invalid(p, name, "runAsUserName's User cannot contain only periods or spaces"));
      if (INVALID_USER_CHARS.test(user)) errs.push(fieldError.invalid(p, name, 'runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]'));
    }
  }
  return errs;
}

/** utilsysctl.GetNamespace: the namespace a namespaced sysctl belongs to. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const dotted = name.replaceAll('/', '.');
  if (dotted.startsWith('net.')) return 'net';
  if (['kernel.shmmax', 'kernel.shmall', 'kernel.shmmni', 'kernel.shm_rmid_forced', 'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni', 'kernel.sem'].includes(dotted)) return 'ipc';
  if (dotted.startsWith('fs.mqueue.')) return 'ipc';
  return undefined;
}

/** validateSysctls with ValidateHostSysctl (AllowNamespacedSysctlsForHostNetAndHostIPC is off on create). */
function sysctls(list: Json[], spec: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list.forEach((s, i) => {
    const name = typeof s.name === 'string' ? s.name : '';
    const p = `${path}[${i}].name`;
    if (name === '') errs.push(fieldError.required(p));
    else if (name.length > SYSCTL_MAX_LENGTH || !sysctlRe.test(name)) {
      errs.push(fieldError.invalid(p, name, `must have at most ${SYSCTL_MAX_LENGTH} characters and match regex ${SYSCTL_PATTERN}`));
    } else if (names.has(name)) errs.push(fieldError.duplicate(p, name));
    const namespace = sysctlNamespace(name);
    if (spec.hostNetwork === true && namespace === 'net') errs.push(fieldError.invalid(p, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && namespace === 'ipc') errs.push(fieldError.invalid(p, name, "may not be specified when 'hostIPC' is true"));
    names.add(name);
  });
  return errs;
}

/** validatePodSpecSecurityContext, `path` being `spec` (or `spec.template.spec`). */
export function validatePodSecurityContext(spec: Json, path: string): FieldError[] {
  const sc = asObject(spec.securityContext);
  if (!sc) return [];
  const p = `${path}.securityContext`;
  const errs: FieldError[] = [];
  errs.push(...idErrors(sc.fsGroup, `${p}.fsGroup`));
  errs.push(...idErrors(sc.runAsUser, `${p}.runAsUser`));
  errs.push(...idErrors(sc.runAsGroup, `${p}.runAsGroup`));
  (Array.isArray(sc.supplementalGroups) ? sc.supplementalGroups : []).forEach((gid, g) => errs.push(...idErrors(gid, `${p}.supplementalGroups[${g}]`)));
  if (spec.shareProcessNamespace === true && spec.hostPID === true) {
    errs.push(fieldError.invalid(`${p}.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  const sysctlList = Array.isArray(sc.sysctls) ? sc.sysctls.filter(isPlainObject) : [];
  if (sysctlList.length) errs.push(...sysctls(sysctlList, spec, `${p}.sysctls`));
  if (typeof sc.fsGroupChangePolicy === 'string' && !FS_GROUP_CHANGE_POLICIES.includes(sc.fsGroupChangePolicy)) {
    errs.push(fieldError.notSupported(`${p}.fsGroupChangePolicy`, sc.fsGroupChangePolicy, FS_GROUP_CHANGE_POLICIES));
  }
  errs.push(...seccompProfile(sc.seccompProfile, `${p}.seccompProfile`));
  errs.push(...windowsOptions(sc.windowsOptions, `${p}.windowsOptions`));
  errs.push(...appArmorProfile(sc.appArmorProfile, `${p}.appArmorProfile`));
  if (typeof sc.supplementalGroupsPolicy === 'string' && !SUPPLEMENTAL_GROUPS_POLICIES.includes(sc.supplementalGroupsPolicy)) {
    errs.push(fieldError.notSupported(`${p}.supplementalGroupsPolicy`, sc.supplementalGroupsPolicy, SUPPLEMENTAL_GROUPS_POLICIES));
  }
  if (typeof sc.seLinuxChangePolicy === 'string' && !SELINUX_CHANGE_POLICIES.includes(sc.seLinuxChangePolicy)) {
    errs.push(fieldError.notSupported(`${p}.seLinuxChangePolicy`, sc.seLinuxChangePolicy, SELINUX_CHANGE_POLICIES));
  }
  return errs;
}

/** ValidateSecurityContext of one container at `path` (…containers[i]); hostUsers is the pod's. */
export function validateContainerSecurityContext(container: Json, hostUsers: boolean, path: string): FieldError[] {
  const sc = asObject(container.securityContext);
  if (!sc) return [];
  const p = `${path}.securityContext`;
  const errs: FieldError[] = [];
  errs.push(...idErrors(sc.runAsUser, `${p}.runAsUser`));
  errs.push(...idErrors(sc.runAsGroup, `${p}.runAsGroup`));
  if (typeof sc.procMount === 'string') {
    if (!PROC_MOUNT_TYPES.includes(sc.procMount)) errs.push(fieldError.notSupported(`${p}.procMount`, sc.procMount, PROC_MOUNT_TYPES));
    if (hostUsers && sc.procMount === 'Unmasked') errs.push(fieldError.invalid(`${p}.procMount`, sc.procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...seccompProfile(sc.seccompProfile, `${p}.seccompProfile`));
  if (sc.allowPrivilegeEscalation === false) {
    const json = typedInternalJson('core.v1.SecurityContext', sc);
    const invalid = (detail: string): FieldError => invalidStruct(p, json, detail);
    if (sc.privileged === true) errs.push(invalid('cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    const add = Array.isArray(asObject(sc.capabilities)?.add) ? (asObject(sc.capabilities)!.add as unknown[]) : [];
    for (const cap of add) if (cap === 'CAP_SYS_ADMIN') errs.push(invalid('cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
  }
  errs.push(...windowsOptions(sc.windowsOptions, `${p}.windowsOptions`));
  errs.push(...appArmorProfile(sc.appArmorProfile, `${p}.appArmorProfile`));
  return errs;
}

/** validateHostUsers: a pod in its own user namespace shares no other namespace with the host. */
export function validateHostUsers(spec: Json, path: string): FieldError[] {
  if (spec.hostUsers !== false) return [];
  const errs: FieldError[] = [];
  if (spec.hostNetwork === true) errs.push(fieldError.forbidden(`${path}.hostNetwork`, 'when `pod.Spec.HostUsers` is false'));
  if (spec.hostPID === true) errs.push(fieldError.forbidden(`${path}.HostPID`, 'when `pod.Spec.HostUsers` is false'));
  if (spec.hostIPC === true) errs.push(fieldError.forbidden(`${path}.HostIPC`, 'when `pod.Spec.HostUsers` is false'));
  return errs;
}

/** Every container of the spec with its path, as podshelper.VisitContainersWithPath walks them. */
function containersWithPath(spec: Json, path: string): Array<[Json, string]> {
  const out: Array<[Json, string]> = [];
  for (const key of ['initContainers', 'containers', 'ephemeralContainers'] as const) {
    (Array.isArray(spec[key]) ? spec[key] : []).forEach((c, i) => {
      if (isPlainObject(c)) out.push([c, `${path}.${key}[${i}]`]);
    });
  }
  return out;
}

const WINDOWS_POD_FIELDS: Array<[string, string]> = [
  ['appArmorProfile', 'securityContext.appArmorProfile'],
  ['seLinuxOptions', 'securityContext.seLinuxOptions'],
];
const WINDOWS_CONTAINER_FIELDS = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'];

/** validateOS, then validateLinux or validateWindows for the OS the spec names. */
export function validatePodOS(spec: Json, path: string): FieldError[] {
  const os = asObject(spec.os);
  if (!os) return [];
  const name = typeof os.name === 'string' ? os.name : '';
  if (name === '') return [fieldError.required(`${path}.os.name`, 'cannot be empty')];
  if (name !== 'linux' && name !== 'windows') return [fieldError.notSupported(`${path}.os`, name, ['linux', 'windows'])];
  const errs: FieldError[] = [];
  const sc = asObject(spec.securityContext);
  if (name === 'linux') {
    if (sc && set(sc.windowsOptions)) errs.push(fieldError.forbidden(`${path}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    for (const [c, p] of containersWithPath(spec, path)) {
      if (set(asObject(c.securityContext)?.windowsOptions)) errs.push(fieldError.forbidden(`${p}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    }
    return errs;
  }
  // validateWindows: the internal PodSecurityContext holds hostUsers, hostPID, hostIPC and
  // shareProcessNamespace, so they count only when the pod has a security context (it always
  // does once defaulted).
  if (sc) {
    for (const [field, p] of WINDOWS_POD_FIELDS) if (set(sc[field])) errs.push(fieldError.forbidden(`${path}.${p}`, WINDOWS_FORBIDDEN));
    if (set(spec.hostUsers)) errs.push(fieldError.forbidden(`${path}.hostUsers`, WINDOWS_FORBIDDEN));
    if (spec.hostPID === true) errs.push(fieldError.forbidden(`${path}.hostPID`, WINDOWS_FORBIDDEN));
    if (spec.hostIPC === true) errs.push(fieldError.forbidden(`${path}.hostIPC`, WINDOWS_FORBIDDEN));
    for (const field of ['seccompProfile', 'fsGroup', 'fsGroupChangePolicy']) if (set(sc[field])) errs.push(fieldError.forbidden(`${path}.securityContext.${field}`, WINDOWS_FORBIDDEN));
    if (Array.isArray(sc.sysctls) && sc.sysctls.length > 0) errs.push(fieldError.forbidden(`${path}.securityContext.sysctls`, WINDOWS_FORBIDDEN));
    if (set(spec.shareProcessNamespace)) errs.push(fieldError.forbidden(`${path}.shareProcessNamespace`, WINDOWS_FORBIDDEN));
    for (const field of ['runAsUser', 'runAsGroup', 'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy']) {
      if (set(sc[field])) errs.push(fieldError.forbidden(`${path}.securityContext.${field}`, WINDOWS_FORBIDDEN));
    }
  }
  for (const [c, p] of containersWithPath(spec, path)) {
    const csc = asObject(c.securityContext);
    if (!csc) continue;
    for (const field of WINDOWS_CONTAINER_FIELDS) if (set(csc[field])) errs.push(fieldError.forbidden(`${p}.securityContext.${field}`, WINDOWS_FORBIDDEN));
  }
  return errs;
}
