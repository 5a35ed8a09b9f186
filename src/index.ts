// kubefake: an embedded, in-memory fake Kubernetes API server for tests.
// First: on an unsupported Node.js, fail with one sentence before any dependency loads.
import './node-support.ts';
export { createFakeCluster } from './cluster/create-cluster.ts';
export { NotSupportedOnRealCluster, isRealClusterMode } from './cluster/real/not-supported.ts';
export type { ClusterTransport, FakeCluster, FakeClusterOptions, Identity, ListenOptions, ListenResult, Manifests, ManifestSource, Permissions, UsedPermission, ApplyOptions, ServerFieldsMode } from './cluster/fake-cluster.ts';
export type { KubeObject, ObjectMeta, OwnerReference, KubeList } from './apis/object.ts';
export type { WebhookHandler, WebhookServiceReference, WebhookTarget } from './webhooks/types.ts';
export type { KubeletControl, LogsBehavior, PodBehavior, PodMatch, ProgrammedLogs, TimedLogLine } from './cluster/workloads.ts';
export { admissionWebhook, nodeWebhook } from './webhooks/admission-webhook.ts';
export type { AdmissionDecision, AdmissionObject, AdmissionRequest, AdmissionReview, JsonPatchOperation, NodeRequestListener, NodeWebhookHandler } from './webhooks/admission-webhook.ts';
export { StatusError } from './errors/status-error.ts';
export type { Status, StatusCause, StatusDetails, StatusReason } from './errors/status-error.ts';
// The test harness: clock, snapshots and diffs, request log and change history, faults, waits, reads, matchers.
export type { ClusterClock, Instant } from './harness/clock.ts';
export type { Seed } from './harness/seeded-random.ts';
export type { ClusterSnapshot, SnapshotOptions } from './harness/snapshot.ts';
export type { ChangedObject, ClusterDiff, FieldChange } from './harness/diff.ts';
export type { RecordLog } from './harness/bounded-log.ts';
export type { RecordedRequest, RequestFilter, RequestLog } from './harness/request-log.ts';
export type { Cassette, CassetteBody, CassetteInteraction, RawExchange } from './harness/cassette.ts';
export type { RequestAttributes, RequestMatch, RequestVerb } from './harness/request-attributes.ts';
export type { ChangeFilter, ChangeHistory, ChangeMatch, StoredChange } from './harness/change-history.ts';
export type { Fault, FaultAction, FaultError, FaultHook, FaultRequest, FaultRule, Faults, FaultStatus } from './harness/faults.ts';
export type { KindSpec, ObjectRef, ObjectTarget } from './harness/object-ref.ts';
export type { ObjectPredicate, WaitForOptions } from './harness/wait-for.ts';
export type { DirectListOptions } from './harness/direct-reads.ts';
export { kubefakeMatchers, toBeAllowedBy, toExistInCluster, toHaveCondition } from './harness/matchers.ts';
export type { ExpectedCondition, MatcherResult } from './harness/matchers.ts';
