// The apimachinery (meta/v1, runtime, version) and autoscaling/v1 Scale definitions the documents
// refer to, compact (descriptions shortened) but with every field and the list/patch extensions
// clients read: kubectl computes strategic merge patches through ObjectMeta from these.
import type { Json } from './names.ts';
import {
  API_VERSION_DESCRIPTION,
  KIND_DESCRIPTION,
  bool,
  gvkList,
  int32,
  int64,
  LIST_METADATA_DESCRIPTION,
  object,
  ref,
  refList,
  str,
  stringList,
  stringMap,
  time,
  typeAndObjectMeta,
} from './schema-helpers.ts';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1';

const typeMeta = () => ({ apiVersion: str(API_VERSION_DESCRIPTION), kind: str(KIND_DESCRIPTION) });

export const META_SCHEMAS: Record<string, Json> = {
  [`${M}.ObjectMeta`]: object('ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.', {
    annotations: stringMap('Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.'),
    creationTimestamp: time('CreationTimestamp is a timestamp representing the server time when this object was created. Populated by the system. Read-only.'),
    deletionGracePeriodSeconds: int64('Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set.'),
    deletionTimestamp: time('DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Populated by the system when a graceful deletion is requested. Read-only.'),
    finalizers: stringList('Must be empty before the object is deleted from the registry.', 'set', { 'x-kubernetes-patch-strategy': 'merge' }),
    generateName: str('GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.'),
    generation: int64('A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.'),
    labels: stringMap('Map of string keys and values that can be used to organize and categorize (scope and select) objects.'),
    managedFields: refList(`${M}.ManagedFieldsEntry`, 'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.', { 'x-kubernetes-list-type': 'atomic' }),
    name: str('Name must be unique within a namespace. Cannot be updated.'),
    namespace: str('Namespace defines the space within which each name must be unique. Cannot be updated.'),
    ownerReferences: refList(`${M}.OwnerReference`, 'List of objects depended by this object.', {
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
    }),
    resourceVersion: str('An opaque value that represents the internal version of this object. Populated by the system. Read-only.'),
    selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
    uid: str('UID is the unique in time and space value for this object. Populated by the system. Read-only.'),
  }),
  [`${M}.ListMeta`]: object('ListMeta describes metadata that synthetic resources must have, including lists and various status objects.', {
    continue: str('continue may be set if the user set a limit on the number of items returned.'),
    remainingItemCount: int64('remainingItemCount is the number of subsequent items in the list which are not included in this list response.'),
    resourceVersion: str('String that identifies the server\'s internal version of this object that can be used by clients to determine when objects have changed. Read-only.'),
    selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
  }),
  [`${M}.ManagedFieldsEntry`]: object('ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.', {
    apiVersion: str('APIVersion defines the version of this resource that this field set applies to.'),
    fieldsType: str('FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"'),
    fieldsV1: ref(`${M}.FieldsV1`, { description: 'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.' }),
    manager: str('Manager is an identifier of the workflow managing these fields.'),
    operation: str("Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."),
    subresource: str('Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource.'),
    time: time('Time is the timestamp of when the ManagedFields entry was added.'),
  }),
  [`${M}.FieldsV1`]: { description: 'FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.', type: 'object' },
  [`${M}.OwnerReference`]: object(
    'OwnerReference contains enough information to let you identify an owning object.',
    {
      apiVersion: str('API version of the referent.', { default: '' }),
      blockOwnerDeletion: bool('If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.'),
      controller: bool('If true, this reference points to the managing controller.'),
      kind: str('Kind of the referent.', { default: '' }),
      name: str('Name of the referent.', { default: '' }),
      uid: str('UID of the referent.', { default: '' }),
    },
    { required: ['apiVersion', 'kind', 'name', 'uid'], 'x-kubernetes-map-type': 'atomic' },
  ),
  [`${M}.Time`]: { description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.', type: 'string', format: 'date-time' },
  [`${M}.MicroTime`]: { description: 'MicroTime is version of Time with microsecond level precision.', type: 'string', format: 'date-time' },
  [`${M}.Status`]: object(
    'Status is a return value for calls that don\'t return other objects.',
    {
      ...typeMeta(),
      code: int32('Suggested HTTP return code for this status, 0 if not set.'),
      details: ref(`${M}.StatusDetails`, { description: 'Extended data associated with the reason.' }),
      message: str('A human-readable description of the status of this operation.'),
      metadata: ref(`${M}.ListMeta`, { default: {}, description: LIST_METADATA_DESCRIPTION }),
      reason: str('A machine-readable description of why this operation is in the "Failure" status.'),
      status: str('Status of the operation. One of: "Success" or "Failure".'),
    },
    { 'x-kubernetes-group-version-kind': gvkList('', 'v1', 'Status') },
  ),
  [`${M}.StatusDetails`]: object('StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response.', {
    causes: refList(`${M}.StatusCause`, 'The Causes array includes more details associated with the StatusReason failure.', { 'x-kubernetes-list-type': 'atomic' }),
    group: str('The group attribute of the resource associated with the status StatusReason.'),
    kind: str('The kind attribute of the resource associated with the status StatusReason.'),
    name: str('The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).'),
    retryAfterSeconds: int32('If specified, the time in seconds before the operation should be retried.'),
    uid: str('UID of the resource.'),
  }),
  [`${M}.StatusCause`]: object('StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.', {
    field: str('The field of the resource that has caused this error, as named by its JSON serialization.'),
    message: str('A human-readable description of the cause of the error.'),
    reason: str('A machine-readable description of the cause of the error.'),
  }),
  [`${M}.DeleteOptions`]: object(
    'DeleteOptions may be provided when deleting an API object.',
    {
      ...typeMeta(),
      dryRun: stringList('When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed'),
      gracePeriodSeconds: int64('The duration in seconds before the object should be deleted.'),
      ignoreStoreReadErrorWithClusterBreakingPotential: bool('if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.'),
      orphanDependents: bool('Deprecated: please use the PropagationPolicy.'),
      preconditions: ref(`${M}.Preconditions`, { description: 'Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.' }),
      propagationPolicy: str("Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'."),
    },
    { 'x-kubernetes-group-version-kind': gvkList('', 'v1', 'DeleteOptions') },
  ),
  [`${M}.Preconditions`]: object('Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.', {
    resourceVersion: str('Specifies the target ResourceVersion'),
    uid: str('Specifies the target UID.'),
  }),
  [`${M}.Patch`]: { description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.', type: 'object' },
  [`${M}.WatchEvent`]: object(
    'Event represents a single event to a watched resource.',
    {
      object: ref('io.k8s.apimachinery.pkg.runtime.RawExtension', { description: 'Object is: * If Type is Added or Modified: the new state of the object. * If Type is Deleted: the state of the object immediately before deletion. * If Type is Error: *Status is recommended; other types may make sense depending on context.' }),
      type: str(undefined, { default: '' }),
    },
    { required: ['type', 'object'], 'x-kubernetes-group-version-kind': gvkList('', 'v1', 'WatchEvent') },
  ),
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { description: 'RawExtension is used to hold extensions in external versions.', type: 'object' },
  [`${M}.LabelSelector`]: object(
    'A label selector is a label query over a set of resources. An empty label selector matches all objects. A null label selector matches no objects.',
    {
      matchExpressions: refList(`${M}.LabelSelectorRequirement`, 'matchExpressions is a list of label selector requirements. The requirements are ANDed.', { 'x-kubernetes-list-type': 'atomic' }),
      matchLabels: stringMap('matchLabels is a map of {key,value} pairs.'),
    },
    { 'x-kubernetes-map-type': 'atomic' },
  ),
  [`${M}.LabelSelectorRequirement`]: object(
    'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
    {
      key: str('key is the label key that the selector applies to.', { default: '' }),
      operator: str("operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist.", { default: '' }),
      values: stringList('values is an array of string values.'),
    },
    { required: ['key', 'operator'] },
  ),
  'io.k8s.api.autoscaling.v1.Scale': object(
    'Scale represents a scaling request for a resource.',
    {
      ...typeAndObjectMeta(),
      spec: ref('io.k8s.api.autoscaling.v1.ScaleSpec', { default: {}, description: 'spec defines the behavior of the scale.' }),
      status: ref('io.k8s.api.autoscaling.v1.ScaleStatus', { default: {}, description: 'status is the current status of the scale. Read-only.' }),
    },
    { 'x-kubernetes-group-version-kind': gvkList('autoscaling', 'v1', 'Scale') },
  ),
  'io.k8s.api.autoscaling.v1.ScaleSpec': object('ScaleSpec describes the attributes of a scale subresource.', {
    replicas: int32('replicas is the desired number of instances for the scaled object.'),
  }),
  'io.k8s.api.autoscaling.v1.ScaleStatus': object(
    'ScaleStatus represents the current status of a scale subresource.',
    {
      replicas: int32('replicas is the actual number of observed instances of the scaled object.', { default: 0 }),
      selector: str('selector is the label query over pods that should match the replicas count.'),
    },
    { required: ['replicas'] },
  ),
  // Discovery and /version documents.
  [`${M}.APIResourceList`]: object(
    'APIResourceList is a list of APIResource, it is used to expose the name of the resources supported in a specific group and version, and if the resource is namespaced.',
    {
      ...typeMeta(),
      groupVersion: str('groupVersion is the group and version this APIResourceList is for.', { default: '' }),
      resources: refList(`${M}.APIResource`, 'resources contains the name of the resources and if they are namespaced.', { 'x-kubernetes-list-type': 'atomic' }),
    },
    { required: ['groupVersion', 'resources'], 'x-kubernetes-group-version-kind': gvkList('', 'v1', 'APIResourceList') },
  ),
  [`${M}.APIResource`]: object(
    'APIResource specifies the name of a resource and whether it is namespaced.',
    {
      categories: stringList("categories is a list of the grouped resources this resource belongs to (e.g. 'all')"),
      group: str('group is the preferred group of the resource.'),
      kind: str("kind is the kind for the resource (e.g. 'Foo' is the kind for a resource 'foo')", { default: '' }),
      name: str('name is the plural name of the resource.', { default: '' }),
      namespaced: { default: false, description: 'namespaced indicates if a resource is namespaced or not.', type: 'boolean' },
      shortNames: stringList('shortNames is a list of suggested short names of the resource.'),
      singularName: str('singularName is the singular name of the resource.', { default: '' }),
      storageVersionHash: str('The hash value of the storage version, the version this resource is converted to when written to the data store.'),
      verbs: stringList('verbs is a list of supported kube verbs.'),
      version: str('version is the preferred version of the resource.'),
    },
    { required: ['name', 'singularName', 'namespaced', 'kind', 'verbs'] },
  ),
  [`${M}.APIGroup`]: object(
    'APIGroup contains the name, the supported versions, and the preferred version of a group.',
    {
      ...typeMeta(),
      name: str('name is the name of the group.', { default: '' }),
      preferredVersion: ref(`${M}.GroupVersionForDiscovery`, { default: {}, description: 'preferredVersion is the version preferred by the API server, which probably is the storage version.' }),
      serverAddressByClientCIDRs: refList(`${M}.ServerAddressByClientCIDR`, 'a map of client CIDR to server address that is serving this group.', { 'x-kubernetes-list-type': 'atomic' }),
      versions: refList(`${M}.GroupVersionForDiscovery`, 'versions are the versions supported in this group.', { 'x-kubernetes-list-type': 'atomic' }),
    },
    { required: ['name', 'versions'], 'x-kubernetes-group-version-kind': gvkList('', 'v1', 'APIGroup') },
  ),
  [`${M}.APIGroupList`]: object(
    'APIGroupList is a list of APIGroup, to allow clients to discover the API at /apis.',
    { ...typeMeta(), groups: refList(`${M}.APIGroup`, 'groups is a list of APIGroup.', { 'x-kubernetes-list-type': 'atomic' }) },
    { required: ['groups'], 'x-kubernetes-group-version-kind': gvkList('', 'v1', 'APIGroupList') },
  ),
  [`${M}.APIVersions`]: object(
    'APIVersions lists the versions that are available, to allow clients to discover the API at /api, which is the root path of the legacy v1 API.',
    {
      ...typeMeta(),
      serverAddressByClientCIDRs: refList(`${M}.ServerAddressByClientCIDR`, 'a map of client CIDR to server address that is serving this group.', { 'x-kubernetes-list-type': 'atomic' }),
      versions: stringList('versions are the api versions that are available.'),
    },
    { required: ['versions', 'serverAddressByClientCIDRs'], 'x-kubernetes-group-version-kind': gvkList('', 'v1', 'APIVersions') },
  ),
  [`${M}.GroupVersionForDiscovery`]: object(
    'GroupVersion contains the "group/version" and "version" string of a version.',
    {
      groupVersion: str('groupVersion specifies the API group and version in the form "group/version"', { default: '' }),
      version: str('version specifies the version in the form of "version".', { default: '' }),
    },
    { required: ['groupVersion', 'version'] },
  ),
  [`${M}.ServerAddressByClientCIDR`]: object(
    'ServerAddressByClientCIDR helps the client to determine the server address that they should use, depending on the clientCIDR that they match.',
    {
      clientCIDR: str('The CIDR with which clients can match their IP to figure out the server address that they should use.', { default: '' }),
      serverAddress: str('Address of this server, suitable for a client that matches the above CIDR.', { default: '' }),
    },
    { required: ['clientCIDR', 'serverAddress'] },
  ),
  'io.k8s.apimachinery.pkg.version.Info': object(
    'Info contains versioning information. how we\'ll want to distribute that information.',
    Object.fromEntries(
      ['buildDate', 'compiler', 'emulationMajor', 'emulationMinor', 'gitCommit', 'gitTreeState', 'gitVersion', 'goVersion', 'major', 'minCompatibilityMajor', 'minCompatibilityMinor', 'minor', 'platform'].map(
        (k) => [k, str(undefined, k.startsWith('emulation') || k.startsWith('minCompat') ? {} : { default: '' })],
      ),
    ),
    { required: ['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform'] },
  ),
};
