// The baseline checks of pod-security-admission v0.36.2 (policy/check_*.go), with their versions
// and their exact wording. Restricted namespaces run them too, except those a restricted check
// overrides.
import { goQuote } from '../../errors/go-format.ts';
import { ALLOWED, forbidden, joinQuote, pluralize, sortedSet, type Check, type CheckPod, type CheckResult } from './check.ts';
import { nameOf, relaxForUserNamespace, visitContainers, type ContainerView, type PodSpecView, type SecurityContextView } from './pod-view.ts';

/** "container "a"" / "containers "a", "b"". */
const containersPhrase = (names: readonly string[]) => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

// check_appArmorProfile.go
const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const allowedAppArmorAnnotation = (v: string) => v === '' || v === 'runtime/default' || v.startsWith('localhost/');
const allowedAppArmorType = (t: string | undefined) => t === 'RuntimeDefault' || t === 'Localhost';

const appArmorProfile_1_0: CheckPod = (metadata, spec) => {
  const badSetters: string[] = [];
  const badValues = new Set<string>();
  const podProfile = spec.securityContext?.appArmorProfile;
  if (podProfile && !allowedAppArmorType(podProfile.type)) {
    badSetters.push('pod');
    badValues.add(podProfile.type ?? '');
  }
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    const profile = c.securityContext?.appArmorProfile;
    if (profile && !allowedAppArmorType(profile.type)) {
      badContainers.push(nameOf(c));
      badValues.add(profile.type ?? '');
    }
  });
  if (badContainers.length) badSetters.push(containersPhrase(badContainers));
  const forbiddenAnnotations: string[] = [];
  for (const [k, v] of Object.entries(metadata.annotations ?? {})) {
    if (k.startsWith(APPARMOR_ANNOTATION_PREFIX) && !allowedAppArmorAnnotation(v)) forbiddenAnnotations.push(`${k}=${goQuote(v)}`);
  }
  const badValueList = sortedSet(badValues);
  if (forbiddenAnnotations.length) {
    badValueList.push(...sortedSet(forbiddenAnnotations));
    badSetters.push(pluralize('annotation', 'annotations', forbiddenAnnotations.length));
  }
  if (!badSetters.length) return ALLOWED;
  return forbidden(
    pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', badValueList.length),
    `${badSetters.join(' and ')} must not set AppArmor profile type to ${joinQuote(badValueList)}`,
  );
};

// check_capabilities_baseline.go
export const CAPABILITIES_BASELINE_ID = 'capabilities_baseline';
const CAPABILITIES_ALLOWED_1_0 = new Set([
  'AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD',
  'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT',
]);

const capabilitiesBaseline_1_0: CheckPod = (_metadata, spec) => {
  const badContainers: string[] = [];
  const nonDefault: string[] = [];
  visitContainers(spec, (c) => {
    const capabilities = c.securityContext?.capabilities;
    if (!capabilities) return;
    let valid = true;
    for (const cap of capabilities.add ?? []) {
      if (!CAPABILITIES_ALLOWED_1_0.has(cap)) {
        valid = false;
        nonDefault.push(cap);
      }
    }
    if (!valid) badContainers.push(nameOf(c));
  });
  if (!badContainers.length) return ALLOWED;
  return forbidden('non-default capabilities', `${containersPhrase(badContainers)} must not include ${joinQuote(sortedSet(nonDefault))} in securityContext.capabilities.add`);
};

// check_hostNamespaces.go
const hostNamespaces_1_0: CheckPod = (_metadata, spec) => {
  const shared: string[] = [];
  if (spec.hostNetwork === true) shared.push('hostNetwork=true');
  if (spec.hostPID === true) shared.push('hostPID=true');
  if (spec.hostIPC === true) shared.push('hostIPC=true');
  return shared.length ? forbidden('host namespaces', shared.join(', ')) : ALLOWED;
};

// check_hostPathVolumes.go
export const HOST_PATH_VOLUMES_ID = 'hostPathVolumes';
const hostPathVolumes_1_0: CheckPod = (_metadata, spec) => {
  const hostVolumes = (spec.volumes ?? []).filter((v) => v.hostPath != null).map(nameOf);
  if (!hostVolumes.length) return ALLOWED;
  return forbidden('hostPath volumes', `${pluralize('volume', 'volumes', hostVolumes.length)} ${joinQuote(hostVolumes)}`);
};

// check_hostPorts.go
const hostPorts_1_0: CheckPod = (_metadata, spec) => {
  const badContainers: string[] = [];
  const ports: string[] = [];
  visitContainers(spec, (c) => {
    let valid = true;
    for (const port of c.ports ?? []) {
      if (port.hostPort) {
        valid = false;
        ports.push(String(port.hostPort));
      }
    }
    if (!valid) badContainers.push(nameOf(c));
  });
  if (!badContainers.length) return ALLOWED;
  const distinct = sortedSet(ports);
  return forbidden(
    'hostPort',
    `${containersPhrase(badContainers)} ${pluralize('uses', 'use', badContainers.length)} ${pluralize('hostPort', 'hostPorts', distinct.length)} ${distinct.join(', ')}`,
  );
};

// check_hostProbesAndhostLifecycle.go
type HostHandler = ContainerView['livenessProbe'];
const handlerHosts = (handler: HostHandler): string[] => {
  if (!handler) return [];
  const hosts: string[] = [];
  if (handler.httpGet && handler.httpGet.host) hosts.push(handler.httpGet.host);
  if (handler.tcpSocket && handler.tcpSocket.host) hosts.push(handler.tcpSocket.host);
  return hosts;
};

const hostProbesAndHostLifecycle_1_34: CheckPod = (_metadata, spec) => {
  const badContainers = new Set<string>();
  const hosts = new Set<string>();
  visitContainers(spec, (c) => {
    for (const handler of [c.livenessProbe, c.readinessProbe, c.startupProbe, c.lifecycle?.postStart, c.lifecycle?.preStop]) {
      const bad = handlerHosts(handler);
      if (!bad.length) continue;
      badContainers.add(nameOf(c));
      for (const host of bad) hosts.add(host);
    }
  });
  if (!badContainers.size) return ALLOWED;
  return forbidden(
    'probe or lifecycle host',
    `${containersPhrase(sortedSet(badContainers))} ${pluralize('uses', 'use', badContainers.size)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', hosts.size)} ${joinQuote(sortedSet(hosts))}`,
  );
};

// check_privileged.go
const privileged_1_0: CheckPod = (_metadata, spec) => {
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.privileged === true) badContainers.push(nameOf(c));
  });
  if (!badContainers.length) return ALLOWED;
  return forbidden('privileged', `${containersPhrase(badContainers)} must not set securityContext.privileged=true`);
};

// check_procMount_baseline.go (procMount_1_0 is also the restricted procMount check)
export const PROC_MOUNT_ID = 'procMount';
export const procMount_1_0: CheckPod = (_metadata, spec) => {
  const badContainers: string[] = [];
  const types: string[] = [];
  visitContainers(spec, (c) => {
    const procMount = c.securityContext?.procMount;
    if (procMount == null || procMount === 'Default') return;
    badContainers.push(nameOf(c));
    types.push(procMount);
  });
  if (!badContainers.length) return ALLOWED;
  return forbidden('procMount', `${containersPhrase(badContainers)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`);
};
const procMount_1_35: CheckPod = (metadata, spec) => (relaxForUserNamespace(spec) ? ALLOWED : procMount_1_0(metadata, spec));

// check_seLinuxOptions.go
const SELINUX_TYPES_1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const SELINUX_TYPES_1_31 = new Set([...SELINUX_TYPES_1_0, 'container_engine_t']);

function seLinuxOptions(spec: PodSpecView, allowedTypes: ReadonlySet<string>): CheckResult {
  const badSetters: string[] = [];
  const badTypes = new Set<string>();
  let setUser = false;
  let setRole = false;
  const valid = (opts: NonNullable<SecurityContextView['seLinuxOptions']>) => {
    let ok = true;
    const type = opts.type ?? '';
    if (!allowedTypes.has(type)) {
      ok = false;
      badTypes.add(type);
    }
    if (opts.user) {
      ok = false;
      setUser = true;
    }
    if (opts.role) {
      ok = false;
      setRole = true;
    }
    return ok;
  };
  const podOptions = spec.securityContext?.seLinuxOptions;
  if (podOptions && !valid(podOptions)) badSetters.push('pod');
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    const options = c.securityContext?.seLinuxOptions;
    if (options && !valid(options)) badContainers.push(nameOf(c));
  });
  if (badContainers.length) badSetters.push(containersPhrase(badContainers));
  if (!badSetters.length) return ALLOWED;
  const badData: string[] = [];
  if (badTypes.size) badData.push(`${pluralize('type', 'types', badTypes.size)} ${joinQuote(sortedSet(badTypes))}`);
  if (setUser) badData.push('user may not be set');
  if (setRole) badData.push('role may not be set');
  return forbidden('seLinuxOptions', `${badSetters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${badData.join('; ')}`);
}

// check_seccompProfile_baseline.go
export const SECCOMP_BASELINE_ID = 'seccompProfile_baseline';
const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.kubernetes.io/pod';
const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.kubernetes.io/';
export const validSeccompType = (t: string | undefined): boolean => t === 'Localhost' || t === 'RuntimeDefault';
const validSeccompAnnotation = (v: string) => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');

const seccompProfileBaseline_1_0: CheckPod = (metadata, spec) => {
  const annotations = metadata.annotations ?? {};
  const bad = new Set<string>();
  const inspect = (key: string) => {
    const value = Object.prototype.hasOwnProperty.call(annotations, key) ? annotations[key] : undefined;
    if (value !== undefined && !validSeccompAnnotation(value)) bad.add(`${key}=${goQuote(value)}`);
  };
  inspect(SECCOMP_POD_ANNOTATION);
  visitContainers(spec, (c) => inspect(SECCOMP_CONTAINER_ANNOTATION_PREFIX + nameOf(c)));
  if (!bad.size) return ALLOWED;
  return forbidden('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', bad.size)} ${sortedSet(bad).join(', ')}`);
};

const seccompProfileBaseline_1_19: CheckPod = (_metadata, spec) => {
  const badSetters: string[] = [];
  const badValues = new Set<string>();
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile && !validSeccompType(podProfile.type)) {
    badSetters.push('pod');
    badValues.add(podProfile.type ?? '');
  }
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    const profile = c.securityContext?.seccompProfile;
    if (profile && !validSeccompType(profile.type)) {
      badContainers.push(nameOf(c));
      badValues.add(profile.type ?? '');
    }
  });
  if (badContainers.length) badSetters.push(containersPhrase(badContainers));
  if (!badSetters.length) return ALLOWED;
  return forbidden('seccompProfile', `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(sortedSet(badValues))}`);
};

// check_sysctls.go
const SYSCTLS_1_0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const SYSCTLS_1_27 = [...SYSCTLS_1_0, 'net.ipv4.ip_local_reserved_ports'];
const SYSCTLS_1_29 = [...SYSCTLS_1_27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];
const SYSCTLS_1_32 = [...SYSCTLS_1_29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

const sysctls = (allowed: readonly string[]): CheckPod => {
  const allowedSet = new Set(allowed);
  return (_metadata, spec) => {
    const bad = (spec.securityContext?.sysctls ?? []).map((s) => s.name ?? '').filter((name) => !allowedSet.has(name));
    return bad.length ? forbidden('forbidden sysctls', bad.join(', ')) : ALLOWED;
  };
};

// check_windowsHostProcess.go
const windowsHostProcess_1_0: CheckPod = (_metadata, spec) => {
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    if (c.securityContext?.windowsOptions?.hostProcess === true) badContainers.push(nameOf(c));
  });
  const setters: string[] = [];
  if (spec.securityContext?.windowsOptions?.hostProcess === true) setters.push('pod');
  if (badContainers.length) setters.push(containersPhrase(badContainers));
  if (!setters.length) return ALLOWED;
  return forbidden('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`);
};

export const BASELINE_CHECKS: readonly Check[] = [
  { id: 'appArmorProfile', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: appArmorProfile_1_0 }] },
  { id: CAPABILITIES_BASELINE_ID, level: 'baseline', versions: [{ minimumMinor: 0, checkPod: capabilitiesBaseline_1_0 }] },
  { id: 'hostNamespaces', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostNamespaces_1_0 }] },
  { id: HOST_PATH_VOLUMES_ID, level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostPathVolumes_1_0 }] },
  { id: 'hostPorts', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: hostPorts_1_0 }] },
  { id: 'hostProbesAndHostLifecycle', level: 'baseline', versions: [{ minimumMinor: 34, checkPod: hostProbesAndHostLifecycle_1_34 }] },
  { id: 'privileged', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: privileged_1_0 }] },
  {
    id: PROC_MOUNT_ID,
    level: 'baseline',
    versions: [
      { minimumMinor: 0, checkPod: procMount_1_0 },
      { minimumMinor: 35, checkPod: procMount_1_35 },
    ],
  },
  {
    id: 'seLinuxOptions',
    level: 'baseline',
    versions: [
      { minimumMinor: 0, checkPod: (_m, spec) => seLinuxOptions(spec, SELINUX_TYPES_1_0) },
      { minimumMinor: 31, checkPod: (_m, spec) => seLinuxOptions(spec, SELINUX_TYPES_1_31) },
    ],
  },
  {
    id: SECCOMP_BASELINE_ID,
    level: 'baseline',
    versions: [
      { minimumMinor: 0, checkPod: seccompProfileBaseline_1_0 },
      { minimumMinor: 19, checkPod: seccompProfileBaseline_1_19 },
    ],
  },
  {
    id: 'sysctls',
    level: 'baseline',
    versions: [
      { minimumMinor: 0, checkPod: sysctls(SYSCTLS_1_0) },
      { minimumMinor: 27, checkPod: sysctls(SYSCTLS_1_27) },
      { minimumMinor: 29, checkPod: sysctls(SYSCTLS_1_29) },
      { minimumMinor: 32, checkPod: sysctls(SYSCTLS_1_32) },
    ],
  },
  { id: 'windowsHostProcess', level: 'baseline', versions: [{ minimumMinor: 0, checkPod: windowsHostProcess_1_0 }] },
];
