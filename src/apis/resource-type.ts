// What kubefake knows about one served resource: its REST mapping, its discovery data, its field
// selectors and the strategy the generic registry runs for it. Built-ins and CRDs produce the same shape.
import type { FieldError } from '../errors/field-error.ts';
import type { JSONSchemaProps } from '../schema/types.ts';
import type { DeletionOutcome } from './deletion-strategy.ts';
import type { DeleteOptions, UserInfo } from './options.ts';
import type { KubeObject, StoredObject } from './object.ts';
import type { ScaleSubresource } from './scale.ts';
import type { StorageCodec } from './storage-codec.ts';
import type { NameRule } from '../validation/names.ts';

/**
 * Per-kind behaviour plugged into the generic registry, as rest.RESTCreateStrategy /
 * RESTUpdateStrategy do in kube-apiserver. Every hook is optional; the registry runs the
 * ObjectMeta rules for every kind itself.
 */
export interface Strategy {
  /** Clears or initialises fields on create (status, generation); `request` says who sent it. */
  prepareForCreate?(obj: KubeObject, request?: StrategyRequest): void;
  /** Carries fields over from the old object on update (status, generation bumps). */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, request?: StrategyRequest): void;
  /**
   * The generic store's BeginCreate/BeginUpdate (registry/generic/registry/store.go): run once per
   * write, after mutating admission and before validation, for what a write takes outside the
   * store (a Service's ClusterIPs and NodePorts). Mutating admission may run prepareForCreate/
   * prepareForUpdate again on a webhook's patched object; these run once. finishWrite ends them.
   */
  beginCreate?(obj: KubeObject, request?: StrategyRequest): void;
  beginUpdate?(obj: KubeObject, old: KubeObject, request?: StrategyRequest): void;
  /**
   * The generic store's FinishFunc (BeginCreate/BeginUpdate in apiserver's registry/generic/
   * registry/store.go): called once for every create or update whose prepareForCreate or
   * prepareForUpdate began (beginCreate/beginUpdate included), with true once the write is committed (or a dry run answered) and
   * false when anything refused it (the prepare itself throwing, validation, admission, the
   * store). What a write holds outside the store (a Service's ClusterIPs and NodePorts) is kept
   * or handed back here.
   */
  finishWrite?(obj: KubeObject, committed: boolean): void;
  /**
   * A create's name changed after prepareForCreate saw `previous`: a mutating plugin set one, or
   * a taken generated name was drawn again. The real store names the object before it runs
   * PrepareForCreate, on a fresh copy each attempt (store.go createWithGenerateNameRetry), so what
   * prepareForCreate derived from the name (a Job's job-name labels) follows the new one.
   */
  renamedForCreate?(obj: KubeObject, previous: string): void;
  /** Kind-specific validation on create; paths are absolute (`data`, `spec.replicas`). */
  validate?(obj: KubeObject): FieldError[];
  /** Kind-specific validation on update. */
  validateUpdate?(obj: KubeObject, old: KubeObject): FieldError[];
  /** Warnings to send as `Warning: 299` headers. */
  warnings?(obj: KubeObject, old?: KubeObject): string[];
  /**
   * kind/apiVersion checks that run before everything else (custom resources); when they fail,
   * the other validation is skipped, as the custom resource validator does.
   */
  validateTypeMeta?(obj: KubeObject): FieldError[];
  /**
   * Graceful deletion (RESTGracefulDeleteStrategy.CheckGracefulDelete): the grace period in
   * seconds for an object not yet deleting, given the requested one; undefined = not graceful.
   */
  checkGracefulDelete?(obj: KubeObject, requestedSeconds: number | undefined): number | undefined;
  /**
   * Replaces the generic delete decision for types whose REST storage wraps Delete (namespaces);
   * undefined falls through to the generic flow. May throw a StatusError.
   */
  beforeDelete?(existing: StoredObject, options: DeleteOptions, now: Date): DeletionOutcome | undefined;
  /** Extra condition for an update to complete a pending deletion (namespaces: spec.finalizers empty). */
  canCompleteDeletion?(obj: KubeObject): boolean;
}

/** What a strategy may know of the request it serves (the request context's user). */
export interface StrategyRequest {
  /** The authenticated user; undefined on a cluster without authentication (auth off). */
  user?: UserInfo;
  /** dryRun=All: nothing the write does may outlast the request. */
  dryRun?: boolean;
}

/** The create-only subresource handlers of registry/subresources (pods/binding, pods/eviction, serviceaccounts/token). */
export type PostSubresourceHandler = 'pod-binding' | 'pod-eviction' | 'serviceaccount-token';

export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  /** Plural resource name used in paths (`deployments`). */
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Discovery verbs in the order the real apiserver lists them. */
  verbs: string[];
  /** Subresources this kubefake serves for the resource (`status`, `scale`). */
  subresources: string[];
  /**
   * Built-ins: every subresource discovery lists for the resource, served or not (the generated
   * catalogue's data); custom resources derive theirs from `subresources`.
   */
  discoverySubresources?: DiscoverySubresource[];
  /** Built-ins: the storage version hash discovery reports (generated, checked against upstream). */
  storageVersionHash?: string;
  /**
   * A resource whose only verb is create and which stores nothing (TokenReview, the access
   * reviews): answers the object a create returns, after the registry's decoding. May throw a
   * StatusError for a request the real REST storage refuses.
   */
  createOnly?: (obj: KubeObject, ctx: CreateOnlyContext) => KubeObject;
  /**
   * A read-only resource the server computes instead of storing (componentstatuses): get and list
   * answer these objects; a name not among them is `missing(name)`'s text as an internal error.
   */
  computed?: { items(): KubeObject[]; missing(name: string): string };
  nameRule: NameRule;
  /**
   * Every field-selector key the kind's conversion function accepts (metadata keys included),
   * mapped to how the value is read. `null` means the default conversion: only metadata.name and
   * metadata.namespace, with the default error text.
   */
  fieldSelectors: Record<string, (obj: KubeObject) => string> | null;
  /** The conversion function's text for an unsupported key, where not `field label not supported: <key>`. */
  fieldLabelError?: (key: string) => string;
  /** Warnings the real server attaches to every request for this resource (deprecations). */
  requestWarnings?: string[];
  /** Whether a PUT without metadata.resourceVersion overwrites (true for most core types). */
  allowUnconditionalUpdate: boolean;
  /** Whether PUT on a missing object creates it. */
  allowCreateOnUpdate: boolean;
  /** Whether DELETE answers with the deleted object rather than a success Status. */
  returnDeletedObject: boolean;
  /** Custom resources serialise with sorted keys and a few list-body quirks. */
  unstructured: boolean;
  strategy: Strategy;
  /** The OpenAPI v3 schema of this version (custom resources; built-ins have none yet). */
  schema?: JSONSchemaProps;
  /**
   * Schema decoding of a request body (custom resources: prune unknown fields, drop nulls,
   * default), in place. Answers the `unknown field "…"` texts for fieldValidation, and a decode
   * error that fails the request with 400.
   */
  decodeBody?(obj: KubeObject): { unknownFields: string[]; error?: string };
  /**
   * What the storage codec does to an object read back (custom resources: the defaults of the
   * version it was stored at, not written back). Must not mutate `obj`; answers it when unchanged.
   */
  fromStorage?(obj: KubeObject): KubeObject;
  /**
   * Conversion between this version and the storage version, for a resource served at several
   * versions (a CRD's): writes are encoded to the storage version, objects read back are decoded
   * to this version (None or webhook conversion). Built-ins have none.
   */
  codec?: StorageCodec;
  /** The version objects are stored at when it differs from `version` (a CRD's storage version). */
  storageVersion?: string;
  /**
   * The resource whose storage this one shares when it is not its own (events.k8s.io events are
   * core v1 Events in the storage factory): its bucket holds the objects, `codec` converts them.
   */
  storageResource?: { group: string; plural: string };
  /** A terminating CRD's resources refuse creates. */
  terminating?: boolean;
  /**
   * Loads what the strategy's validation needs (modules kubefake loads on first use, not with its
   * import); the registry awaits it before validating a write of this type. The strategy may then
   * call into them synchronously.
   */
  loadValidation?: () => Promise<void>;
  /** A CRD version's additionalPrinterColumns (custom resources only; built-ins print their own columns). */
  printerColumns?: PrinterColumn[];
  /**
   * The strategy `/status` updates run in place of `strategy` (the kind's StatusStrategy);
   * present exactly when `subresources` lists `status`.
   */
  statusStrategy?: Strategy;
  /**
   * Subresources that are plain updates through a strategy of their own (`namespaces/finalize`),
   * by name; served for PUT only.
   */
  updateSubresources?: Record<string, Strategy>;
  /**
   * Connect subresources (rest.Connecter: pods/log, exec, attach, portforward, proxy), by name,
   * with the HTTP methods each is installed for (its ConnectMethods).
   */
  connectSubresources?: Readonly<Record<string, readonly string[]>>;
  /** Create-only subresources (POST only, served as a create), by name, with the handler that serves each. */
  postSubresources?: Readonly<Record<string, PostSubresourceHandler>>;
  /**
   * A collection POST served by a create-only subresource of another resource of the group, for
   * the object the body names (LegacyBindingREST: a create of `bindings` is pods/binding).
   */
  createAsSubresource?: { resource: string; handler: PostSubresourceHandler };
  /** How `/scale` reads and writes objects; present exactly when `subresources` lists `scale`. */
  scale?: ScaleSubresource;
  /**
   * Set on the derived type a subresource's writes run through (`status`), so write paths that
   * care (managedFields' `subresource`) can tell; undefined for the resource itself.
   */
  subresource?: string;
  /**
   * Set on a derived type whose writes admission sees as another object than the one stored: the
   * scale subresource's Scale (ScaleREST's scaleUpdatedObjectInfo runs mutating admission on the
   * Scale, toScaleUpdateValidation hands validating admission the Scales of both objects).
   */
  admissionView?: AdmissionView;
}

/** What admission is asked about for the writes of a derived type (`admissionView`). */
export interface AdmissionView {
  /** The type admission is told about: the resource, its kind the view's, no strategy of its own. */
  type: ResourceType;
  /** The view's kind (autoscaling/v1 Scale), in another group than the resource's. */
  kind: { group: string; version: string; kind: string };
  /** The view of an object (a Scale of the workload). */
  of(obj: KubeObject): KubeObject;
  /** Writes what mutating admission made of the view back into the object, in place; throws the REST's errors. */
  apply(obj: KubeObject, view: KubeObject): void;
}

/** One subresource as discovery lists it (APIResource of `<resource>/<name>`). */
export interface DiscoverySubresource {
  name: string;
  /** Set when the subresource answers another group version's kind (autoscaling/v1 Scale). */
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
}

export interface CreateOnlyContext {
  /** The request's namespace (LocalSubjectAccessReview). */
  namespace: string | undefined;
  now: Date;
  /** Who asked, on a cluster that authenticates (auth: true); undefined otherwise. */
  user?: UserInfo;
  /** The cluster's authorizer, on a cluster that authorizes; the review APIs answer with it. */
  access?: AccessReviewer;
  /** The cluster's token authenticator, on a cluster that authenticates; TokenReview answers with it. */
  tokens?: TokenReviewer;
}

/** The bearer token authenticator TokenReview asks (auth/authenticator.ts implements it). */
export interface TokenReviewer {
  /** The user `token` authenticates as for `audiences` (the API server's own when absent), or why not. */
  review(token: string, audiences?: readonly string[]): { user: UserInfo; audiences: string[] } | { error: string };
}

/** An access question as the review APIs put it (authorizer.AttributesRecord). */
export interface AccessQuestion {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  /** The request path (non-resource requests). */
  path: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
}

/** The authorizer the review APIs ask (auth/rbac-authorizer.ts implements it). */
export interface AccessReviewer {
  authorize(question: AccessQuestion): { allowed: boolean; reason: string };
  /** Every rule that applies to `user` in `namespace` (SelfSubjectRulesReview). */
  rulesFor(user: UserInfo, namespace: string): Record<string, unknown>[];
}

/** apiextensions.k8s.io/v1 CustomResourceColumnDefinition. */
export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export const storageKeyOf = (rt: Pick<ResourceType, 'group' | 'plural'> & Partial<Pick<ResourceType, 'storageResource'>>): string =>
  rt.storageResource ? `${rt.storageResource.group}/${rt.storageResource.plural}` : `${rt.group}/${rt.plural}`;
