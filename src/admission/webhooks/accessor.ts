// One webhook of a configuration as the dispatchers see it (apiserver/pkg/admission/plugin/webhook/
// accessors.go): the webhook spec with its configuration's name, an identity for reinvocation,
// and its selectors parsed once. Configurations are read from the store, ordered by name as the
// configuration managers sort them (mutating_webhook_manager.go, validating_webhook_manager.go),
// and the webhooks of each in their listed order.
import type { StoredObject } from '../../apis/object.ts';
import type { VersionedStore } from '../../storage/versioned-store.ts';
import type { LabelSelector } from '../../selectors/label-selector.ts';
import { labelSelectorAsSelector as asSelector } from '../../selectors/label-selector-as-selector.ts';
import { compareGoStrings } from '../../selectors/go-strings.ts';
import type { WebhookClientConfig } from '../../webhooks/types.ts';

export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

export interface MatchCondition {
  name: string;
  expression: string;
}

/** admissionregistration/v1 MutatingWebhook and ValidatingWebhook (after defaulting). */
export interface WebhookSpec {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: unknown;
  objectSelector?: unknown;
  sideEffects?: string;
  timeoutSeconds?: number;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: string;
  matchConditions?: MatchCondition[];
}

export interface WebhookAccessor {
  /** `<configuration>/<index>`, as the accessors' GetUID(). */
  uid: string;
  configurationName: string;
  spec: WebhookSpec;
  /** The parsed selectors, or the error of metav1.LabelSelectorAsSelector. */
  namespaceSelector: LabelSelector | Error;
  objectSelector: LabelSelector | Error;
}

/**
 * metav1.LabelSelectorAsSelector (selectors/label-selector-as-selector.ts), its error returned;
 * nil counts as empty here (v1 defaulting sets `{}`), selecting everything.
 */
export function labelSelectorAsSelector(selector: unknown): LabelSelector | Error {
  try {
    return asSelector(selector ?? {});
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

// Stored objects are frozen and replaced on every write: their accessors are computed once.
const accessorCache = new WeakMap<StoredObject, WebhookAccessor[]>();

function accessorsOf(configuration: StoredObject): WebhookAccessor[] {
  let accessors = accessorCache.get(configuration);
  if (!accessors) {
    const name = configuration.metadata.name;
    const hooks = ((configuration as Record<string, unknown>).webhooks ?? []) as WebhookSpec[];
    accessors = hooks.map((spec, i) => ({
      uid: `${name}/${i}`,
      configurationName: name,
      spec,
      namespaceSelector: labelSelectorAsSelector(spec.namespaceSelector),
      objectSelector: labelSelectorAsSelector(spec.objectSelector),
    }));
    accessorCache.set(configuration, accessors);
  }
  return accessors;
}

export type ConfigurationKind = 'mutatingwebhookconfigurations' | 'validatingwebhookconfigurations';

/**
 * Every webhook of every configuration of one kind, configurations by name: what the real
 * plugin's configuration manager keeps from its informer. Rebuilt only after a write to those
 * configurations, so a request no webhook matches pays no listing.
 */
export class WebhookSource {
  private readonly store: VersionedStore;
  private readonly bucket: string;
  private cached: WebhookAccessor[] | undefined;
  constructor(store: VersionedStore, kind: ConfigurationKind) {
    this.store = store;
    this.bucket = `admissionregistration.k8s.io/${kind}`;
    store.subscribe((event) => {
      if (event.bucket === this.bucket) this.cached = undefined;
    });
  }

  webhooks(): WebhookAccessor[] {
    if (!this.cached) {
      const configurations = this.store.list(this.bucket, '').map((e) => e.object);
      configurations.sort((a, b) => compareGoStrings(a.metadata.name, b.metadata.name));
      this.cached = configurations.flatMap(accessorsOf);
    }
    return this.cached;
  }
}
