// The apimachinery definitions the documents refer to that no built-in Go type reaches (discovery
// documents, WatchEvent, Patch, version.Info), compact (descriptions shortened). Everything the Go
// types reach (ObjectMeta, Status, DeleteOptions, LabelSelector, Scale, ...) is generated, in
// src/generated/openapi-definitions.generated.ts, and wins over this table (closeOverRefs).
import type { Json } from './names.ts';
import {
  API_VERSION_DESCRIPTION,
  KIND_DESCRIPTION,
  gvkList,
  object,
  ref,
  refList,
  str,
  stringList,
} from './schema-helpers.ts';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1';

const typeMeta = () => ({ apiVersion: str(API_VERSION_DESCRIPTION), kind: str(KIND_DESCRIPTION) });

export const META_SCHEMAS: Record<string, Json> = {
  [`${M}.Patch`]: { description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.', type: 'object' },
  [`${M}.WatchEvent`]: object(
    'Event represents a single event to a watched resource.',
    {
      object: ref('io.k8s.apimachinery.pkg.runtime.RawExtension', { description: 'Object is: * If Type is Added or Modified: the new state of the object. * If Type is Deleted: the state of the object immediately before deletion. * If Type is Error: *Status is recommended; other types may make sense depending on context.' }),
      type: str(undefined, { default: '' }),
    },
    { required: ['type', 'object'], 'x-kubernetes-group-version-kind': gvkList('', 'v1', 'WatchEvent') },
  ),
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
