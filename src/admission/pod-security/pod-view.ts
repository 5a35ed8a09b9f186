// The parts of a v1 Pod's metadata and spec the Pod Security checks read, as JSON. The objects
// reach admission decoded and validated, so the shapes hold; every read still tolerates null and
// a missing field, which Go's decoding makes a nil pointer or a zero value.

export interface SecurityContextView {
  privileged?: boolean | null;
  allowPrivilegeEscalation?: boolean | null;
  runAsNonRoot?: boolean | null;
  runAsUser?: number | null;
  procMount?: string | null;
  capabilities?: { add?: string[] | null; drop?: string[] | null } | null;
  seccompProfile?: { type?: string } | null;
  appArmorProfile?: { type?: string } | null;
  seLinuxOptions?: { type?: string; user?: string; role?: string } | null;
  windowsOptions?: { hostProcess?: boolean | null } | null;
  sysctls?: { name?: string }[] | null;
}

interface HostHandlerView {
  httpGet?: { host?: string } | null;
  tcpSocket?: { host?: string } | null;
}

export interface ContainerView {
  name?: string;
  image?: string;
  ports?: { hostPort?: number }[] | null;
  securityContext?: SecurityContextView | null;
  livenessProbe?: HostHandlerView | null;
  readinessProbe?: HostHandlerView | null;
  startupProbe?: HostHandlerView | null;
  lifecycle?: { postStart?: HostHandlerView | null; preStop?: HostHandlerView | null } | null;
}

export type VolumeView = { name?: string } & Record<string, unknown>;

export interface PodSpecView {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  hostUsers?: boolean | null;
  os?: { name?: string } | null;
  runtimeClassName?: string | null;
  securityContext?: SecurityContextView | null;
  containers?: ContainerView[] | null;
  initContainers?: ContainerView[] | null;
  ephemeralContainers?: ContainerView[] | null;
  volumes?: VolumeView[] | null;
}

export interface PodMetadataView {
  name?: string;
  annotations?: Record<string, string> | null;
}

/** visitContainers: init containers, then containers, then ephemeral containers. */
export function visitContainers(spec: PodSpecView, visit: (container: ContainerView) => void): void {
  for (const list of [spec.initContainers, spec.containers, spec.ephemeralContainers]) {
    for (const container of list ?? []) visit(container);
  }
}

/** The container's name as Go holds it (a missing name is ""). */
export const nameOf = (container: { name?: string }): string => container.name ?? '';

/** A pod in a user namespace (`hostUsers: false`): some checks are relaxed for it. */
export const relaxForUserNamespace = (spec: PodSpecView): boolean => spec.hostUsers === false;

export const isWindowsPod = (spec: PodSpecView): boolean => spec.os?.name === 'windows';
