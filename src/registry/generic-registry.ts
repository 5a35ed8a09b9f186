// The generic store pipeline every resource runs through (apiserver/pkg/registry/generic/registry/store.go):
// system fields, the type's strategy, validation, optimistic concurrency, dry-run and deletion.
// It never sees HTTP: inputs are decoded objects and options, outputs are objects or StatusErrors.
import { deepCopyJson } from '../schema/json-value.ts';
import { apiVersionOf, isPlainObject, type KubeObject, type ObjectMeta, type StoredObject } from '../apis/object.ts';
import type { ResourceType } from '../apis/resource-type.ts';
import { storageKeyOf } from '../apis/resource-type.ts';
import { fieldError, type FieldError } from '../errors/field-error.ts';
import { goJson } from '../errors/go-format.ts';
import {
  alreadyExists,
  badRequest,
  conflict,
  deleteSuccess,
  forbidden,
  generateNameConflict,
  invalid,
  nestedTooDeep,
  notFound,
  OPTIMISTIC_LOCK_MESSAGE,
  plainServerError,
  StatusError,
  type GroupResource,
  type Status,
} from '../errors/status-error.ts';
import { ETCD_MAX_REQUEST_BYTES, KeyExistsError, RevisionConflictError, UnstorableObjectError, type DerivedSlot, type WriteLimits } from '../storage/versioned-store.ts';
import { MAX_OBJECT_DEPTH } from '../util/nesting-depth.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../validation/object-meta.ts';
import { formatTimestamp } from '../go/time.ts';
import type { Clock } from '../util/clock-and-random.ts';
import type { RegistryContext } from './context.ts';
import type { DeletionOutcome } from '../apis/deletion-strategy.ts';
import { applyDeletion, completesDeletion } from './deletion.ts';
import { GENERATE_NAME_ATTEMPTS, generateName } from './generate-name.ts';
import { listObjects, type ListResult } from './list.ts';
import { computedGet, computedList } from './computed-resource.ts';
import { loadCelFor } from '../cel/lazy.ts';
import { admitNamespacedCreate } from './namespace-admission.ts';
import type { AdmissionAttributes, AdmissionOperation, GroupVersionKind } from './admission.ts';
import {
  fieldValidationMode,
  isDryRun,
  validateDeleteOptions,
  validateWriteOptions,
  type DeleteOptions,
  type GetOptions,
  type ListOptions,
  type WriteOptions,
} from '../apis/options.ts';
import { readAtLeast } from './read-revision.ts';
import { presentShared } from './presented-objects.ts';
import { startWatch, type WatchHandle, type WatchOptions, type WatchSink } from './watch.ts';
import { convertingWatchSink } from './converting-watch-sink.ts';
import { fieldSelectorForName, parseFieldSelector } from '../selectors/field-selector.ts';
import { SelectorParseError } from '../selectors/selector-error.ts';
import { applyStrictWarnings, isApplyPatch, type ApplyPatch } from '../apply/apply-patch.ts';
import { shareUnchanged } from '../util/share-unchanged.ts';
import { applyToLive, ignoreManagedFieldsTimestamps, managerOrUserAgent, recordUpdateManager } from '../apply/registry-hooks.ts';
import { decodeBuiltin, hasTypedDecoding } from '../decoding/builtin-decoder.ts';

/** What a list keeps in a store entry's DerivedSlot: the entry's object as `type` presents it. */
interface PresentedBy {
  type: ResourceType;
  object: KubeObject;
}

export interface WriteResult {
  object: KubeObject;
  /** 201 when the write created the object. */
  created: boolean;
  warnings: string[];
}

export interface DeleteResult {
  /** The deleted (or now-deleting) object, or the success Status for types that answer with one. */
  body: KubeObject | Status;
  /** True when the object is still there, waiting on finalizers. */
  pending: boolean;
  /** 202 only when deletion is pending and the client explicitly sent orphanDependents=false; else 200. */
  code: 200 | 202;
}

/** Stored and decoded objects are plain JSON: deepCopyJson copies them ~7× faster than structuredClone. */
const deepCopy = <T>(v: T): T => deepCopyJson(v);

/**
 * A stored object's copy for a control-plane writer to edit. Its managedFields stay the stored,
 * frozen list (in their place among the metadata): writers replace the list, never edit it, and
 * the field manager only reads it, so copying the sets' trees on every status write is wasted.
 */
function copyToEdit(stored: StoredObject): KubeObject {
  const managed = stored.metadata.managedFields;
  if (managed === undefined || !Object.isFrozen(managed)) return deepCopy(stored) as KubeObject;
  const copy = deepCopy({ ...stored, metadata: { ...stored.metadata, managedFields: undefined } }) as KubeObject;
  copy.metadata!.managedFields = managed;
  return copy;
}

/** What a patch's 422 prints as the patch: the patched JSON, or what the patch type says (%+v of a strategic patch map). */
const patchInvalidValue = (options: WriteOptions, patched: unknown): string => options.patchDecoding?.invalidValue?.() ?? goJson(patched);

/**
 * A write's warnings in the order the real handler adds them: mutating admission's, then the
 * strategy's (rest.BeforeCreate/BeforeUpdate), then validating admission's (store.go runs the
 * validating phase after those).
 */
const orderedWarnings = (admission: readonly string[], mutating: number, strategy: readonly string[]): string[] => [
  ...admission.slice(0, mutating),
  ...strategy,
  ...admission.slice(mutating),
];

/**
 * One admission run's attributes: what is asked about, plus what the request's options say (dry
 * run, user) and the empty warnings and audit annotations the plugins fill; handed to the
 * request's observer as the run starts (options.ts AdmissionObserver).
 */
function requestAttributes(
  what: Omit<AdmissionAttributes, 'options' | 'dryRun' | 'userInfo' | 'warnings' | 'auditAnnotations'>,
  options: WriteOptions | DeleteOptions,
): AdmissionAttributes {
  const attributes: AdmissionAttributes = { ...what, options, dryRun: isDryRun(options.dryRun), userInfo: options.user, warnings: [], auditAnnotations: {} };
  options.observeAdmission?.(attributes);
  return attributes;
}

/** Decode warnings (unknown fields) come before the strategy's own. */
const withWarnings = (result: WriteResult, first: string[]): WriteResult => (first.length ? { ...result, warnings: [...first, ...result.warnings] } : result);

export class GenericRegistry {
  readonly type: ResourceType;
  readonly bucket: string;
  readonly groupResource: GroupResource;
  private readonly ctx: RegistryContext;

  /** The cluster clock (managedFields times of writes that go around the registry's field manager). */
  get clock(): Clock {
    return this.ctx.clock;
  }

  constructor(type: ResourceType, ctx: RegistryContext) {
    this.type = type;
    this.ctx = ctx;
    this.bucket = storageKeyOf(type);
    this.groupResource = { group: type.group, resource: type.plural };
  }

  get apiVersion(): string {
    return apiVersionOf(this.type.group, this.type.version);
  }

  keyOf(namespace: string | undefined, name: string): string {
    return this.type.namespaced ? `${namespace ?? ''}/${name}` : name;
  }

  /** The object as stored (as the storage codec decodes it), or undefined; no copy, no HTTP semantics. */
  peek(namespace: string | undefined, name: string): StoredObject | undefined {
    const obj = this.ctx.store.get(this.bucket, this.keyOf(namespace, name));
    return obj && this.fromStorage(obj);
  }

  /** The type's read-time decoding (custom resources: stored-version defaults, never written back). */
  private fromStorage<T extends KubeObject>(obj: T): T {
    return this.type.fromStorage ? (this.type.fromStorage(obj) as T) : obj;
  }

  /**
   * Stored objects as this version serves them: the storage codec converts objects stored at
   * another version (a webhook call makes it asynchronous). Types without a codec: as they are.
   * `isList`: the items of a list or deletecollection (conversion failures use the list texts).
   */
  private fromStore<T extends KubeObject>(objs: T[], isList: boolean): T[] | Promise<T[]> {
    return this.type.codec ? (this.type.codec.decode(objs, this.ctx, isList) as T[] | Promise<T[]>) : objs;
  }

  private async fromStoreOne<T extends KubeObject>(obj: T): Promise<T> {
    return (await this.fromStore([obj], false))[0]!;
  }

  /** The object as it is written: converted to the storage version by the storage codec. */
  private toStore(obj: KubeObject): KubeObject | Promise<KubeObject> {
    return this.type.codec ? this.type.codec.encode(obj, this.ctx) : obj;
  }

  /**
   * Writes a client's object through the storage codec with what storage refuses: custom resources
   * are stored as JSON under etcd's request size limit, every object under kubefake's depth limit.
   * A write too large for etcd is tried once more without managedFields (create.go, update.go and
   * patch.go do, except for apply patches); still too large, it is the 500 etcd's error becomes
   * (kubernetes#112152: `etcdserver: request is too large`, no reason).
   */
  private async commitWrite(obj: KubeObject, applied: boolean, write: (encoded: KubeObject, limits: WriteLimits | undefined) => StoredObject): Promise<StoredObject> {
    const limits = this.type.unstructured ? { etcdRequestBytes: ETCD_MAX_REQUEST_BYTES } : undefined;
    const attempt = async () => {
      try {
        return { stored: write(await this.toStore(obj), limits) };
      } catch (err) {
        if (!(err instanceof UnstorableObjectError)) throw err;
        if (err.problem === 'tooDeep') throw nestedTooDeep(MAX_OBJECT_DEPTH);
        return undefined;
      }
    };
    const first = await attempt();
    if (first) return first.stored;
    if (!applied && obj.metadata?.managedFields) {
      delete obj.metadata.managedFields;
      const second = await attempt();
      if (second) return second.stored;
    }
    throw plainServerError('etcdserver: request is too large');
  }

  /** A dry run answers what a write would: the object through the storage codec and back (read defaults included). */
  private async roundTrip(obj: KubeObject): Promise<KubeObject> {
    return this.type.codec ? this.fromStoreOne(this.fromStorage(await this.toStore(obj))) : obj;
  }

  async get(namespace: string | undefined, name: string, options: GetOptions = {}): Promise<KubeObject> {
    if (this.type.computed) return computedGet(this.type, name);
    await readAtLeast(this.ctx.store, options.resourceVersion);
    const obj = this.peek(namespace, name);
    if (!obj) throw notFound(this.groupResource, name);
    return this.present(await this.fromStoreOne(obj));
  }

  async list(namespace: string | undefined, options: ListOptions = {}): Promise<ListResult> {
    if (this.type.computed) return computedList(this.type, options);
    // Without a storage codec, every item is presented as a watch presents it: the same frozen
    // object per stored state (presented-objects.ts), whose JSON the HTTP layer keeps.
    if (!this.type.codec) return listObjects(this.ctx.store, this.type, this.bucket, namespace, options, this.presentListed);
    const result = await listObjects(this.ctx.store, this.type, this.bucket, namespace, options);
    const items = await this.fromStore(result.items.map((o) => this.fromStorage(o)), true);
    return { ...result, items: items.map((o) => this.present(o)) };
  }

  /** Watches a collection, or one object when `name` is given (as `fieldSelector=metadata.name=`). */
  watch(namespace: string | undefined, name: string | undefined, options: WatchOptions, sink: WatchSink): WatchHandle {
    let fieldSelector = options.fieldSelector;
    if (name !== undefined) {
      try {
        fieldSelector = fieldSelectorForName(fieldSelector ? parseFieldSelector(fieldSelector) : undefined, name).toString();
      } catch (err) {
        if (err instanceof SelectorParseError) throw badRequest(err.message);
        throw err;
      }
    }
    const codec = this.type.codec;
    if (codec) {
      // Objects leave the store at their stored version; the sink converts them one event at a
      // time, in order, and stops converting once the watch is stopped.
      const target = { store: this.ctx.store, type: this.type, bucket: this.bucket, namespace, present: (o: StoredObject) => this.fromStorage(o) as KubeObject };
      const converting = convertingWatchSink(sink, (obj) => {
        const decoded = codec.decode([obj], this.ctx, false);
        return decoded instanceof Promise ? decoded.then(([o]) => this.present(o!)) : this.present(decoded[0]!);
      });
      const handle = startWatch(target, { ...options, fieldSelector }, converting);
      return {
        stop() {
          converting.stop();
          handle.stop();
        },
        bookmark: () => handle.bookmark(),
      };
    }
    const target = { store: this.ctx.store, type: this.type, bucket: this.bucket, namespace, present: this.presentStored };
    return startWatch(target, { ...options, fieldSelector }, sink);
  }

  async create(namespace: string | undefined, body: KubeObject, options: WriteOptions = {}): Promise<WriteResult> {
    validateWriteOptions('CreateOptions', options);
    ({ body, options } = this.decodeTyped(body, options));
    const obj = this.prepareBody(body, namespace, 'create');
    // forbidCreateAdmission of the CRD handler: a terminating CRD takes no new objects.
    if (this.type.terminating) throw forbidden(this.groupResource, obj.metadata?.name ?? '', 'create not allowed while custom resource definition is terminating');
    const decodeWarnings = this.decode(obj, options);
    // Create-only APIs (the reviews) answer from their REST storage and store nothing. The create
    // handler's field manager has run first, so the object the REST sees carries managedFields
    // (which is why the review validations ignore them).
    if (this.type.createOnly) {
      recordUpdateManager(this.type, this.ctx.clock, undefined, obj, this.managerOf(options));
      return { object: this.type.createOnly(obj, { namespace, now: this.ctx.clock.now(), user: options.user, access: this.ctx.access, tokens: this.ctx.tokens }), created: true, warnings: decodeWarnings };
    }
    return withWarnings(await this.createOnce(obj, options), decodeWarnings);
  }

  /**
   * The create handler and the store's Create (endpoints/handlers/create.go,
   * registry/generic/registry/store.go). Mutating admission sees the object as sent: a
   * generateName create has no name yet and is admitted with name ''. The name is generated after
   * it (unless a plugin set one), then validation and validating admission see it; a generated
   * name that already exists is drawn again, up to GENERATE_NAME_ATTEMPTS times in all
   * (RetryGenerateName, GA since 1.32), re-running only what follows mutating admission.
   * A taken name answers 409 AlreadyExists; an apply's create (`applied`) gets the
   * KeyExistsError instead, to apply to the object that won.
   */
  private async createOnce(input: KubeObject, options: WriteOptions, applied = false): Promise<WriteResult> {
    await loadCelFor(this.type, input); // the validation below may compile CEL rules, loaded on first use
    if (this.type.loadValidation) await this.type.loadValidation();
    const obj = deepCopy(input);
    const meta = obj.metadata!;
    const requestedResourceVersion = meta.resourceVersion;
    // kubefake runs the strategy's PrepareForCreate (its defaulting included) before mutating
    // admission, where the real store runs it after generating the name: the name PrepareForCreate
    // may use (a Job's job-name labels) is drawn first, hidden from mutating admission, and is
    // the first attempt's name if no plugin sets one.
    const sentPrefix = !meta.name && meta.generateName ? meta.generateName : undefined;
    const candidate = sentPrefix !== undefined ? generateName(sentPrefix, this.ctx.random) : undefined;
    if (candidate !== undefined) meta.name = candidate;
    // rest.BeforeCreate: system fields are the server's, whatever the client sent.
    meta.uid = options.restore?.uid ?? this.ctx.random.uid();
    meta.creationTimestamp = options.restore?.creationTimestamp ?? formatTimestamp(this.ctx.clock.now());
    delete meta.generation;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    delete meta.resourceVersion;
    const finish = this.finisher(obj);
    try {
      const request = { user: options.user, dryRun: isDryRun(options.dryRun) };
      this.type.strategy.prepareForCreate?.(obj, request);
      // The name prepareForCreate saw; a later one (a plugin's, a retry's draw) is passed on to the strategy.
      let preparedName = meta.name;
      const named = () => {
        const name = obj.metadata?.name;
        if (preparedName !== undefined && name !== undefined && name !== preparedName) this.type.strategy.renamedForCreate?.(obj, preparedName);
        preparedName = name;
      };
      if (!applied) recordUpdateManager(this.type, this.ctx.clock, undefined, obj, this.managerOf(options));
      // Mutating admission sees the object after the field manager, so what plugins add is not
      // attributed to the request's manager (create.go). Here it also sees the system fields and
      // PrepareForCreate's changes, which the real chain applies after it (webhooks are sent the
      // object without the system fields: webhooks/request.ts).
      if (candidate !== undefined) delete meta.name;
      const admission = this.admissionAttributes('CREATE', obj, undefined, options);
      if (admission) await this.ctx.admission!.admit(admission);
      const mutatingWarnings = admission?.warnings.length ?? 0;
      // needsNameGeneration, asked of the admitted object: a name a plugin set is kept, and a
      // generateName a plugin changed is the one drawn from.
      const admitted = obj.metadata ?? {};
      const generate = !admitted.name && !!admitted.generateName;
      this.type.strategy.beginCreate?.(obj, request);
      for (let attempt = 1; ; attempt++) {
        // Every attempt is of the same object (an attempt refused for its name changed nothing
        // else): the strategy's finishWrite and its validation know the write by that object.
        if (generate) {
          const prefix = obj.metadata!.generateName!;
          obj.metadata!.name = attempt === 1 && prefix === sentPrefix ? candidate : generateName(prefix, this.ctx.random);
        }
        named();
        if (admission) admission.warnings.length = mutatingWarnings; // a failed attempt's warnings are not the answer's
        try {
          return await this.storeCreate(obj, options, applied, admission, mutatingWarnings, requestedResourceVersion, () => finish(true));
        } catch (err) {
          if (!(err instanceof KeyExistsError) || applied) throw err;
          if (generate && attempt < GENERATE_NAME_ATTEMPTS) continue;
          // store.go: the storage conflict becomes AlreadyExists, which rest.CheckGeneratedNameError
          // gives the generateName text whenever the object has a generateName (even with a name the
          // client or a mutating plugin gave); a deleting object prefixes either.
          const prefix = err.existing.metadata.deletionTimestamp ? 'object is being deleted: ' : '';
          const name = obj.metadata!.name!;
          throw obj.metadata!.generateName ? generateNameConflict(this.groupResource, name, prefix) : alreadyExists(this.groupResource, name, prefix);
        }
      }
    } catch (err) {
      finish(false);
      throw err;
    }
  }

  /** One attempt of the store's create: validation, validating admission, storage. */
  private async storeCreate(
    obj: KubeObject,
    options: WriteOptions,
    applied: boolean,
    admission: AdmissionAttributes | undefined,
    mutatingWarnings: number,
    requestedResourceVersion: string | undefined,
    /** Told once the write is stored (or a dry run has answered), before anything else that could fail. */
    committed: () => void,
  ): Promise<WriteResult> {
    const meta = obj.metadata!;
    const typeErrors = this.type.strategy.validateTypeMeta?.(obj) ?? [];
    const errors = typeErrors.length ? typeErrors : [...validateObjectMeta(meta, this.metaRules()), ...(this.type.strategy.validate?.(obj) ?? [])];
    if (errors.length) throw this.invalid(meta.name ?? '', errors);
    if (this.type.namespaced) admitNamespacedCreate(this.ctx.store, this.groupResource, meta);
    if (admission) {
      // rest.AdmissionToValidateObjectFunc: validating admission is asked about the object this
      // attempt stores, by the name it was created with or else the one generated. The namespace
      // stays the request's: a namespace's create took it from its name as sent (create.go), so
      // a generateName namespace is asked with namespace '' (a cluster-scoped object's anyway).
      const name = admission.name || (meta.name ?? '');
      const namespace = admission.namespace ?? (admission.name === '' ? '' : undefined);
      await this.ctx.admission!.validate({ ...admission, object: obj, name, namespace });
    }
    if (requestedResourceVersion) throw plainServerError('resourceVersion should not be set on objects to be created');
    const key = this.keyOf(meta.namespace, meta.name!);
    const warnings = orderedWarnings(admission?.warnings ?? [], mutatingWarnings, this.type.strategy.warnings?.(obj) ?? []);
    if (isDryRun(options.dryRun)) {
      const existing = this.ctx.store.get(this.bucket, key);
      if (existing) throw new KeyExistsError(existing);
      const object = this.present(await this.roundTrip(obj));
      committed();
      return { object, created: true, warnings };
    }
    const stored = await this.commitWrite(obj, applied, (encoded, limits) => this.ctx.store.create(this.bucket, key, encoded, limits));
    committed();
    return { object: this.present(await this.fromStoreOne(stored)), created: true, warnings };
  }

  /**
   * The strategy's finishWrite for one prepared write, run once: the first call decides (a
   * failure after the commit, reading the stored object back, no longer undoes it).
   */
  private finisher(obj: KubeObject): (committed: boolean) => void {
    const finishWrite = this.type.strategy.finishWrite;
    let done = !finishWrite;
    return (committed) => {
      if (done) return;
      done = true;
      finishWrite!(obj, committed);
    };
  }

  async update(namespace: string | undefined, name: string, body: KubeObject, options: WriteOptions = {}): Promise<WriteResult> {
    validateWriteOptions('UpdateOptions', options);
    ({ body, options } = this.decodeTyped(body, options));
    const obj = this.prepareBody(body, namespace, 'update', name);
    const decodeWarnings = this.decode(obj, options);
    for (;;) {
      const stored = this.peek(namespace, name);
      if (!stored) {
        if (!this.type.allowCreateOnUpdate) throw notFound(this.groupResource, name);
        return this.create(namespace, obj, options);
      }
      const requested = conditionalVersion(obj.metadata!.resourceVersion);
      if (!requested && !this.type.allowUnconditionalUpdate) {
        // The real gk here is built from the resource, so details.kind is the plural.
        throw invalid({ group: this.type.group, kind: this.type.plural }, name, [
          fieldError.invalid('metadata.resourceVersion', 0, 'must be specified for an update'),
        ]);
      }
      // The strategy sees the stored object at this version (converted when stored at another).
      const existing = this.type.codec ? await this.fromStoreOne(stored) : stored;
      try {
        return withWarnings(await this.updateFrom(existing, obj, requested || undefined, options), decodeWarnings);
      } catch (err) {
        // A write between read and commit (possible while a conversion webhook runs): read again,
        // as GuaranteedUpdate does; the client's resourceVersion then answers 409.
        if (err instanceof RevisionConflictError) continue;
        throw err;
      }
    }
  }

  /**
   * Applies a patch to the latest object and runs the update pipeline. Patches need no
   * resourceVersion; a patch that sets one is checked like a PUT's. `apply` computes the patched
   * object from the current one (any patch type; it throws the patch type's own errors) and is
   * run again on the new state when a concurrent write wins, as GuaranteedUpdate does.
   */
  async patch(
    namespace: string | undefined,
    name: string,
    apply: ((current: Record<string, unknown>) => unknown) | ApplyPatch,
    options: WriteOptions = {},
  ): Promise<WriteResult> {
    validateWriteOptions('PatchOptions', options, isApplyPatch(apply));
    return this.patchValidated(namespace, name, apply, options);
  }

  /**
   * patch() for a caller that has validated its request's options itself: the scale subresource,
   * whose PUT carries UpdateOptions (ScaleREST writes through the store without a second check).
   */
  async patchValidated(
    namespace: string | undefined,
    name: string,
    apply: ((current: Record<string, unknown>) => unknown) | ApplyPatch,
    options: WriteOptions,
    /** The patch function writes managedFields itself (the scale subresource's ScaleHandler). */
    ownManagedFields = false,
  ): Promise<WriteResult> {
    const serverSideApply = isApplyPatch(apply);
    for (;;) {
      const stored = this.peek(namespace, name);
      const existing = stored && this.type.codec ? await this.fromStoreOne(stored) : stored;
      if (!existing && serverSideApply) {
        const created = await this.applyCreate(namespace, name, apply, options);
        if (created) return created;
        continue;
      }
      if (!existing) throw notFound(this.groupResource, name);
      const patched = serverSideApply ? this.serverSideApply(existing, apply, options) : apply(this.present(existing));
      if (!isPlainObject(patched) || (patched.metadata !== undefined && !isPlainObject(patched.metadata))) {
        throw invalid({ group: '', kind: '' }, '', [fieldError.invalid('patch', goJson(patched), 'cannot decode the patched object')]);
      }
      const typed = this.decodeTyped(patched as KubeObject, options, serverSideApply ? 'apply' : 'patch');
      const obj = this.prepareBody(typed.body, namespace, 'patch', name);
      const decodeWarnings = this.decode(obj, typed.options, patched);
      const requested = obj.metadata!.resourceVersion;
      try {
        const warnings = serverSideApply ? [...decodeWarnings, ...applyStrictWarnings(apply)] : decodeWarnings;
        return withWarnings(await this.updateFrom(existing, obj, requested, options, serverSideApply || ownManagedFields), warnings);
      } catch (err) {
        // Raced with another write: re-apply the patch to the new state, as GuaranteedUpdate does. A
        // resourceVersion the patch itself sets then no longer matches, and updateFrom answers 409.
        if (err instanceof RevisionConflictError) continue;
        throw err;
      }
    }
  }

  private serverSideApply(existing: StoredObject | undefined, patch: ApplyPatch, options: WriteOptions): Record<string, unknown> {
    const live = existing ? (this.present(existing) as Record<string, unknown>) : undefined;
    return applyToLive(this.type, this.ctx.clock, live, patch, options.fieldManager ?? '');
  }

  /** An apply to a missing object creates it (201); undefined when a concurrent create won the race. */
  private async applyCreate(namespace: string | undefined, name: string, patch: ApplyPatch, options: WriteOptions): Promise<WriteResult | undefined> {
    const applied = this.serverSideApply(undefined, patch, options);
    const uid = isPlainObject(applied.metadata) ? applied.metadata.uid : undefined;
    if (typeof uid === 'string' && uid !== '') {
      throw conflict(this.groupResource, name, `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`);
    }
    const typed = this.decodeTyped(applied as KubeObject, options, 'apply');
    const obj = this.prepareBody(typed.body, namespace, 'patch', name);
    if (this.type.terminating) throw forbidden(this.groupResource, name, 'create not allowed while custom resource definition is terminating');
    const decodeWarnings = this.decode(obj, typed.options, applied);
    try {
      return withWarnings(await this.createOnce(obj, options, true), [...decodeWarnings, ...applyStrictWarnings(patch)]);
    } catch (err) {
      if (err instanceof KeyExistsError && !err.existing.metadata.deletionTimestamp) return undefined;
      if (err instanceof KeyExistsError) throw alreadyExists(this.groupResource, name, 'object is being deleted: ');
      throw err;
    }
  }

  /** managerOrUserAgent: who a create, update or non-apply patch is recorded as. */
  private managerOf(options: WriteOptions): string {
    return managerOrUserAgent(options.fieldManager, options.userAgent);
  }

  private async updateFrom(existing: StoredObject, input: KubeObject, requestedResourceVersion: string | undefined, options: WriteOptions, applied = false): Promise<WriteResult> {
    await loadCelFor(this.type, input); // as in createOnce; a write meanwhile ends in a conflict, retried by the callers
    if (this.type.loadValidation) await this.type.loadValidation();
    const name = existing.metadata.name;
    if (requestedResourceVersion !== undefined && requestedResourceVersion !== existing.metadata.resourceVersion) {
      throw conflict(this.groupResource, name, OPTIMISTIC_LOCK_MESSAGE);
    }
    const obj = deepCopy(input);
    const meta = obj.metadata!;
    const old = existing.metadata;
    if (meta.uid && meta.uid !== old.uid) {
      throw conflict(
        this.groupResource,
        name,
        `StorageError: invalid object, Code: 4, Key: /registry/${this.type.group ? this.type.group + '/' : ''}${this.type.plural}/${this.keyOf(old.namespace, name)}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${old.uid}`,
      );
    }
    // rest.BeforeUpdate: fields the server owns are copied from the stored object.
    meta.uid = old.uid;
    meta.creationTimestamp = old.creationTimestamp;
    if (old.generation !== undefined) meta.generation = old.generation;
    else delete meta.generation;
    if (old.deletionTimestamp) meta.deletionTimestamp = old.deletionTimestamp;
    if (old.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
      meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
    }
    delete meta.selfLink;
    meta.resourceVersion = old.resourceVersion;
    const dryRun = isDryRun(options.dryRun);
    const finish = this.finisher(obj);
    try {
      const request = { user: options.user, dryRun };
      this.type.strategy.prepareForUpdate?.(obj, existing, request);
      if (!applied) recordUpdateManager(this.type, this.ctx.clock, existing, obj, this.managerOf(options));
      // As in createOnce: mutating admission after the field manager, validating after validation,
      // both inside the retry loop of the callers (GuaranteedUpdate re-runs them on a conflict).
      const admission = this.admissionAttributes('UPDATE', obj, existing, options);
      const view = this.type.admissionView;
      if (admission) {
        await this.ctx.admission!.admit(admission);
        // The mutated view (a Scale) goes back into the object.
        if (view) view.apply(obj, admission.object!);
      }
      this.type.strategy.beginUpdate?.(obj, existing, request);
      const mutatingWarnings = admission?.warnings.length ?? 0;
      ignoreManagedFieldsTimestamps(obj, existing);
      const typeErrors = this.type.strategy.validateTypeMeta?.(obj) ?? [];
      const errors = typeErrors.length
        ? typeErrors
        : [...validateObjectMetaUpdate(meta, old, this.metaRules()), ...(this.type.strategy.validateUpdate?.(obj, existing) ?? [])];
      if (errors.length) throw this.invalid(name, errors);
      if (admission) {
        if (view) admission.object = view.of(obj);
        await this.ctx.admission!.validate(admission);
      }
      const warnings = orderedWarnings(admission?.warnings ?? [], mutatingWarnings, this.type.strategy.warnings?.(obj, existing) ?? []);
      const key = this.keyOf(old.namespace, name);
      if (dryRun) {
        const object = this.present(await this.roundTrip(obj));
        finish(true);
        return { object, created: false, warnings };
      }
      // Removing the last finalizer of a deleting object completes its deletion: what the update
      // took is handed back (the store's delete releases what the stored object held).
      if (completesDeletion(obj, existing, this.type)) {
        this.ctx.store.delete(this.bucket, key, old.resourceVersion);
        finish(false);
        return { object: this.present(obj), created: false, warnings };
      }
      const stored = await this.commitWrite(obj, applied, (encoded, limits) => this.ctx.store.update(this.bucket, key, encoded, old.resourceVersion, limits));
      finish(true);
      return { object: this.present(await this.fromStoreOne(stored)), created: false, warnings };
    } catch (err) {
      finish(false);
      throw err;
    }
  }

  async delete(namespace: string | undefined, name: string, options: DeleteOptions = {}): Promise<DeleteResult> {
    validateDeleteOptions(options);
    for (;;) {
      const existing = this.peek(namespace, name);
      if (!existing) throw notFound(this.groupResource, name);
      try {
        const result = await this.deleteOnce(existing, options);
        return { ...result, code: result.pending && options.orphanDependents === false ? 202 : 200 };
      } catch (err) {
        if (err instanceof RevisionConflictError) continue;
        throw err;
      }
    }
  }

  private async deleteOnce(existing: StoredObject, options: DeleteOptions): Promise<Omit<DeleteResult, 'code'>> {
    // delete.go: admission (both phases, with the stored object as oldObject) before the store's Delete.
    const admission = this.admissionAttributes('DELETE', undefined, existing, options);
    if (admission) {
      await this.ctx.admission!.admit(admission);
      await this.ctx.admission!.validate(admission);
    }
    const outcome: DeletionOutcome = applyDeletion(existing, options, this.type, this.ctx.clock);
    const key = this.keyOf(existing.metadata.namespace, existing.metadata.name);
    const dryRun = isDryRun(options.dryRun);
    if (outcome.kind === 'pending') return { body: this.deletedBody(existing), pending: true };
    if (outcome.kind === 'update') {
      const object = dryRun ? outcome.object : this.ctx.store.update(this.bucket, key, outcome.object, existing.metadata.resourceVersion);
      return { body: this.present(await this.fromStoreOne(object)), pending: true };
    }
    if (dryRun) return { body: outcome.write ? this.present(await this.fromStoreOne(outcome.write)) : this.deletedBody(existing), pending: false };
    let revision = existing.metadata.resourceVersion;
    if (outcome.write) revision = this.ctx.store.update(this.bucket, key, outcome.write, revision).metadata.resourceVersion;
    const removed = this.ctx.store.delete(this.bucket, key, revision);
    return { body: this.deletedBody(removed), pending: false };
  }

  /** finalizeDelete: the object for types that return it, else a success Status naming it. */
  private deletedBody(obj: StoredObject): KubeObject | Status {
    return this.type.returnDeletedObject ? this.present(obj) : deleteSuccess(this.groupResource, obj.metadata.name, obj.metadata.uid);
  }

  /**
   * A control-plane write (garbage collector, namespace controller, finalize/status writers):
   * read-modify-write of the stored object without the main-resource strategy, which would undo
   * the fields these writers own. `mutate` edits a copy and answers whether it changed anything.
   * Completes a pending deletion when the change leaves no finalizers. Answers the stored object
   * (undefined once deleted or when the object is gone or its uid differs).
   *
   * `manager` names a writer that reaches the real apiserver as a client (the kubelet's status
   * patch, the scheduler's, a controller's patch): its change is recorded in managedFields as that
   * manager's Update on this registry's type (the `/status` registry records subresource status),
   * as the handler's field manager would. Without it the write leaves managedFields as they were,
   * as the apiserver's own storage-level writes (binding, eviction's condition) do. The object is
   * written as stored, so a manager is only for types stored at the version they are served in.
   */
  systemUpdate(namespace: string | undefined, name: string, mutate: (obj: KubeObject) => boolean, uid?: string, manager?: string): StoredObject | undefined {
    const key = this.keyOf(namespace, name);
    for (;;) {
      const existing = this.peek(namespace, name);
      if (!existing || (uid !== undefined && existing.metadata.uid !== uid)) return undefined;
      const obj = copyToEdit(existing);
      if (!mutate(obj)) return existing;
      // What the write left as it was goes back to being the stored (frozen) parts: the field
      // manager's comparison and the store's freeze skip them.
      shareUnchanged(obj as Record<string, unknown>, existing as Record<string, unknown>, ['metadata']);
      if (manager !== undefined) {
        recordUpdateManager(this.type, this.ctx.clock, existing, obj, manager);
        shareUnchanged(obj.metadata as Record<string, unknown>, existing.metadata as Record<string, unknown>);
      }
      try {
        if (completesDeletion(obj, existing, this.type)) {
          this.ctx.store.delete(this.bucket, key, existing.metadata.resourceVersion);
          return undefined;
        }
        return this.ctx.store.update(this.bucket, key, obj, existing.metadata.resourceVersion);
      } catch (err) {
        if (err instanceof RevisionConflictError) continue;
        throw err;
      }
    }
  }

  /** Deletes every object a list with these options matches; answers the matched list as it was. */
  async deleteCollection(namespace: string | undefined, listOptions: ListOptions, options: DeleteOptions): Promise<ListResult> {
    validateDeleteOptions(options);
    const { items, resourceVersion } = await listObjects(this.ctx.store, this.type, this.bucket, namespace, { ...listOptions, limit: undefined, continue: undefined });
    for (const item of items) {
      try {
        await this.delete(item.metadata?.namespace, item.metadata!.name!, options);
      } catch (err) {
        // Deleted concurrently: the real deletecollection ignores NotFound as well.
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      }
    }
    const decoded = await this.fromStore(items.map((o) => this.fromStorage(o)), true);
    return { items: decoded.map((o) => this.present(o)), resourceVersion, continue: undefined, remainingItemCount: undefined };
  }

  /**
   * Typed decoding of a built-in kind's body (src/decoding): what the Go struct keeps of it
   * replaces the body, and its strict findings (unknown and duplicate fields in document order)
   * join strictDecodeErrors for decode() to report per fieldValidation. A body the Go decoder
   * refuses is a 400; a patched object it refuses, a 422 naming the patched JSON. Server-side
   * apply reports unknown fields itself, so its result is decoded leniently.
   */
  private decodeTyped(body: KubeObject, options: WriteOptions, from?: 'patch' | 'apply'): { body: KubeObject; options: WriteOptions } {
    const { group, version, kind, unstructured } = this.type;
    if (unstructured || !hasTypedDecoding(group, version, kind)) return { body, options };
    const json = from ? undefined : options.bodyJson;
    const strict = from !== 'apply' && fieldValidationMode(options.fieldValidation) !== 'Ignore';
    const via = from === 'patch' ? options.patchDecoding?.via : undefined;
    const outcome = decodeBuiltin({ group, version, kind, object: body, json, strict, via });
    if (outcome.ok === 'skipped') return { body, options };
    if (!outcome.ok) {
      if (from) throw invalid({ group: '', kind: '' }, '', [fieldError.invalid('patch', patchInvalidValue(options, body), outcome.error)]);
      throw badRequest(outcome.message);
    }
    // Decoding the JSON document found its duplicate fields itself, in order among the unknown ones.
    const earlier = json !== undefined ? [] : (options.strictDecodeErrors ?? []);
    return { body: outcome.object, options: { ...options, bodyJson: undefined, strictDecodeErrors: [...earlier, ...outcome.strictErrors] } };
  }

  /**
   * The type's schema decoding (prune, default) and fieldValidation over what strict decoding
   * found: the body's duplicate fields first, then the unknown (pruned) fields. Strict fails
   * (400 for create/update, 422 for patches), Warn answers them as warnings, Ignore drops them.
   */
  private decode(obj: KubeObject, options: WriteOptions, patched?: unknown): string[] {
    const decode = this.type.decodeBody;
    const { kind, version } = this.type;
    const result = decode ? decode(obj) : { unknownFields: [] };
    if (result.error) throw badRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: ${result.error}`);
    const mode = fieldValidationMode(options.fieldValidation);
    const found = [...(options.strictDecodeErrors ?? []), ...result.unknownFields];
    if (!found.length || mode === 'Ignore') return [];
    if (mode === 'Warn') return found;
    const issues = `strict decoding error: ${found.join(', ')}`;
    if (patched !== undefined) throw invalid({ group: '', kind: '' }, '', [fieldError.invalid('patch', patchInvalidValue(options, patched), issues)]);
    throw badRequest(`${kind} in version ${JSON.stringify(version)} cannot be handled as a ${kind}: ${issues}`);
  }

  /**
   * Decodes what the registry needs from a request body: apiVersion/kind defaulted, name and
   * namespace checked against the URL with the real 400 texts, metadata made an object.
   */
  private prepareBody(body: KubeObject, namespace: string | undefined, verb: 'create' | 'update' | 'patch', urlName?: string): KubeObject {
    const obj: KubeObject = { ...body };
    obj.apiVersion ||= this.apiVersion;
    obj.kind ||= this.type.kind;
    // Custom resources report a wrong apiVersion as a 422 from their validator instead.
    if (obj.apiVersion !== this.apiVersion && !this.type.unstructured) {
      throw badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${this.apiVersion})`);
    }
    const meta: ObjectMeta = isPlainObject(obj.metadata) ? { ...obj.metadata } : {};
    obj.metadata = meta;
    if (this.type.namespaced) {
      if (!meta.namespace) meta.namespace = namespace;
      // EnsureObjectNamespaceMatchesRequestNamespace runs before checkName in the create, update and
      // patch handlers alike (1.36), so checkName's own namespace text is never reached.
      else if (meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    } else {
      delete meta.namespace;
    }
    if (urlName !== undefined) {
      // checkName: ContextBasedNaming.ObjectName refuses an object without a name.
      if (!meta.name) throw badRequest(`the name of the object (${urlName} based on URL) was undeterminable: name must be provided`);
      if (meta.name !== urlName) throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${urlName})`);
    }
    return obj;
  }

  /**
   * Both admission phases for the body of a create-only subresource whose REST is not the generic
   * store's (pods/binding, pods/eviction, serviceaccounts/token): `subresourceType` is the derived
   * type it is asked about, `kind` its body's kind (policy/v1 Eviction for pods/eviction), and
   * `checks` what its REST does between the phases (create.go runs the mutating phase before the
   * REST's Create, which calls createValidation itself: BindingREST after its name check and the
   * Binding's validation, EvictionREST after its name check, TokenREST after its own validation).
   * Nothing is stored here.
   */
  async admitSubresourceCreate(
    subresourceType: ResourceType,
    kind: GroupVersionKind,
    namespace: string | undefined,
    name: string,
    body: KubeObject,
    options: WriteOptions,
    checks: () => void | Promise<void>,
  ): Promise<void> {
    // create.go's EnsureObjectNamespaceMatchesRequestNamespace, before admission: the body takes
    // the request's namespace, or is refused when it names another.
    if (namespace !== undefined) {
      const meta = isPlainObject(body.metadata) ? (body.metadata as ObjectMeta) : (body.metadata = {});
      if (!meta.namespace) meta.namespace = namespace;
      else if (meta.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    const attributes =
      this.ctx.admission &&
      requestAttributes(
        { operation: 'CREATE', type: subresourceType, subresource: subresourceType.subresource ?? '', kind, namespace, name, object: body, oldObject: undefined },
        options,
      );
    if (attributes) await this.ctx.admission!.admit(attributes);
    await checks();
    if (attributes) await this.ctx.admission!.validate(attributes);
  }

  /** The admission attributes of a write, or undefined when the cluster runs no admission chain. */
  private admissionAttributes(
    operation: AdmissionOperation,
    object: KubeObject | undefined,
    oldObject: KubeObject | undefined,
    options: WriteOptions | DeleteOptions,
  ): AdmissionAttributes | undefined {
    if (!this.ctx.admission) return undefined;
    const meta = (object ?? oldObject)?.metadata ?? {};
    // A derived type with a view of its own (the scale subresource) is admitted as that view.
    const view = this.type.admissionView;
    return requestAttributes(
      {
        operation,
        type: view?.type ?? this.type,
        subresource: this.type.subresource ?? '',
        ...(view ? { kind: view.kind } : {}),
        namespace: this.type.namespaced ? meta.namespace : undefined,
        name: meta.name ?? '',
        object: view && object ? view.of(object) : object,
        oldObject: view && oldObject ? view.of(oldObject) : oldObject,
      },
      options,
    );
  }

  private metaRules() {
    return { namespaced: this.type.namespaced, nameRule: this.type.nameRule };
  }

  private invalid(name: string, errors: FieldError[]) {
    return invalid({ group: this.type.group, kind: this.type.kind }, name, errors);
  }

  /**
   * What a client receives: apiVersion and kind set in front. Stored objects are frozen, so the
   * nested parts are shared, not copied; callers that hand objects to users copy them.
   */
  private readonly presentStored = (obj: StoredObject): KubeObject => this.present(this.fromStorage(obj));

  /** presentShared(), kept in the store entry's slot as well: the next list finds it there without a table lookup. */
  private readonly presentListed = (obj: StoredObject, slot: DerivedSlot | undefined): KubeObject => {
    const kept = slot?.derived as PresentedBy | undefined;
    if (kept !== undefined && kept.type === this.type) return kept.object;
    const object = presentShared(this.type, obj, this.presentStored);
    if (slot) slot.derived = { type: this.type, object } satisfies PresentedBy;
    return object;
  };

  private present(obj: KubeObject): KubeObject {
    const { apiVersion: _a, kind: _k, ...rest } = obj;
    return { apiVersion: this.apiVersion, kind: this.type.kind, ...rest };
  }
}

/**
 * The resourceVersion an update is conditional on: none when the body carries none or "0". The
 * apiserver parses the body's version to a number and treats 0 as unconditional where the
 * strategy allows it (registry/generic/registry/store.go Update: doUnconditionalUpdate), so
 * `kubectl replace` of a manifest saying resourceVersion "0" overwrites the live object.
 */
function conditionalVersion(resourceVersion: string | undefined): string | undefined {
  return resourceVersion && resourceVersion !== '0' ? resourceVersion : undefined;
}
