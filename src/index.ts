// kubefake: an embedded, in-memory fake Kubernetes API server for tests.
export { createFakeCluster } from './cluster/fake-cluster.ts';
export type { FakeCluster, FakeClusterOptions, ListenOptions, ListenResult, Manifests } from './cluster/fake-cluster.ts';
export type { KubeObject, ObjectMeta, OwnerReference, KubeList } from './apis/object.ts';
export { StatusError } from './errors/status-error.ts';
export type { Status, StatusCause, StatusDetails, StatusReason } from './errors/status-error.ts';
