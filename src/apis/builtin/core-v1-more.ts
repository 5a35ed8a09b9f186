// The core/v1 kinds served since the catalogue is generated (the rest of core/v1 is core-v1.ts):
// discovery data from the generated catalogue, behaviour from pkg/registry/core/<resource>/
// {strategy.go,storage/storage.go}, defaults from pkg/apis/core/v1/defaults.go, field selectors
// from pkg/apis/core/v1/conversion.go.
import { methodNotSupported } from '../../errors/status-error.ts';
import { formatTimestamp } from '../../go/time.ts';
import { builtinScale } from '../scale.ts';
import type { KubeObject } from '../object.ts';
import type { ResourceType } from '../resource-type.ts';
import type { BuiltinContext } from './context.ts';
import { genericDefinition } from './generic.ts';
import { defaultPodTemplate } from './pod-spec.ts';
import { keepFromStored } from './status-strategies.ts';
import { validatePersistentVolume, validatePersistentVolumeUpdate } from './storage-validation.ts';
import {
  builtin,
  builtinFacts,
  child,
  composeStrategy,
  defaulting,
  generation,
  getIn,
  goInt,
  meta,
  metadataName,
  metadataNamespace,
  objAt,
  setDefault,
  statusSubresource,
} from './shared.ts';

const core = (def: Parameters<typeof builtin>[2]) => builtin('', 'v1', def);
const generic = (plural: string) => genericDefinition(builtinFacts('', 'v1', plural));

export function moreCoreV1ResourceTypes(ctx: BuiltinContext): ResourceType[] {
  return [
    core({
      ...generic('bindings'),
      // LegacyBindingREST binds the pod the Binding names: a POST is served as pods/binding.
      // A create that reaches the registry itself (cluster.apply) has no pod storage to bind through.
      createAsSubresource: { resource: 'pods', handler: 'pod-binding' },
      createOnly: () => {
        throw methodNotSupported({ group: '', resource: 'bindings' }, 'create');
      },
    }),
    core({ ...generic('componentstatuses'), readWarnings: ['v1 ComponentStatus is deprecated in v1.19+'], computed: componentStatuses }),
    core({
      ...generic('limitranges'),
      // limitRangeStrategy.AllowCreateOnUpdate.
      allowCreateOnUpdate: true,
    }),
    core({
      ...generic('persistentvolumes'),
      returnDeletedObject: true,
      strategy: composeStrategy(defaulting(defaultPersistentVolume), { validate: validatePersistentVolume, validateUpdate: validatePersistentVolumeUpdate }, {
        // PrepareForCreate: a new volume is Pending since now (PersistentVolumeLastPhaseTransitionTime, GA).
        prepareForCreate: (obj) => {
          obj.status = { phase: 'Pending', lastPhaseTransitionTime: formatTimestamp(ctx.now()) };
        },
        prepareForUpdate: (obj, old) => {
          obj.status = structuredClone(old.status);
        },
      }),
      statusStrategy: composeStrategy(defaulting(defaultPersistentVolume), keepFromStored('spec'), {
        // persistentvolumeStatusStrategy.PrepareForUpdate: a phase change stamps the transition time.
        prepareForUpdate: (obj, old) => {
          const phase = getIn(obj, ['status', 'phase']);
          if (phase !== getIn(old, ['status', 'phase'])) child(obj, 'status').lastPhaseTransitionTime = formatTimestamp(ctx.now());
        },
      }),
    }),
    core({
      ...generic('podtemplates'),
      returnDeletedObject: true,
      strategy: composeStrategy(
        defaulting((obj) => defaultPodTemplate(obj.template)),
        generation((obj) => obj.template ?? null),
      ),
    }),
    core({
      ...generic('replicationcontrollers'),
      subresources: ['scale', 'status'],
      scale: builtinScale('', 'replicationcontrollers', ['v1'], true),
      fieldSelectors: {
        'metadata.name': metadataName,
        'metadata.namespace': metadataNamespace,
        'status.replicas': (obj) => goInt(getIn(obj, ['status', 'replicas'])),
      },
      strategy: composeStrategy(
        defaulting(defaultReplicationController),
        statusSubresource(() => ({ replicas: 0 })),
        generation(),
      ),
      statusStrategy: composeStrategy(defaulting(defaultReplicationController), keepFromStored('spec')),
    }),
    core({ ...generic('resourcequotas') }),
  ];
}

/** SetDefaults_ReplicationController, and the pod template's defaults. */
function defaultReplicationController(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  const labels = objAt(objAt(spec, 'template'), 'metadata')?.labels;
  if (labels && typeof labels === 'object') {
    if (!objAt(spec, 'selector') || Object.keys(objAt(spec, 'selector')!).length === 0) spec.selector = structuredClone(labels);
    const m = meta(obj);
    if (!m.labels || Object.keys(m.labels).length === 0) m.labels = structuredClone(labels) as Record<string, string>;
  }
  setDefault(spec, 'replicas', 1);
  defaultPodTemplate(spec.template);
}

/** SetDefaults_PersistentVolume. */
function defaultPersistentVolume(obj: KubeObject): void {
  const spec = child(obj, 'spec');
  setDefault(spec, 'persistentVolumeReclaimPolicy', 'Retain');
  setDefault(spec, 'volumeMode', 'Filesystem');
  if (objAt(obj, 'status')) setDefault(child(obj, 'status'), 'phase', 'Pending');
}

// ---- ComponentStatus (pkg/registry/core/componentstatus, deprecated but served) ----

/** One probed component as getComponentStatus reports it: a single Healthy condition. */
const componentStatus = (name: string, healthy: boolean, message: string): KubeObject => ({
  kind: 'ComponentStatus',
  apiVersion: 'v1',
  metadata: { name },
  conditions: [{ type: 'Healthy', status: healthy ? 'True' : 'False', message }],
});

/**
 * The servers kube-apiserver probes (serversToValidate in pkg/registry/core/rest/storage_core.go):
 * the controller-manager and scheduler /healthz endpoints on localhost and each etcd. kubefake's
 * store and its in-process controllers answer for etcd-0 and the controller-manager; no scheduler
 * runs, so its probe fails as the HTTP prober reports a refused connection.
 */
const componentStatuses = {
  items: (): KubeObject[] => [
    componentStatus('controller-manager', true, 'ok'),
    componentStatus('etcd-0', true, 'ok'),
    componentStatus('scheduler', false, 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused'),
  ],
  missing: (name: string) => `Component not found: ${name}`,
};
