#!/usr/bin/env node
// Generates src/generated/builtin-catalogue.ts: every group, version and resource a default
// kube-apiserver serves, with its discovery entry (verbs, shortNames, categories, singular name,
// subresources, storageVersionHash), from the upstream documents vendored under
// scripts/upstream/<version>/ (see the README there). A later Kubernetes version is a new
// directory of inputs and a rerun:
//
//   node scripts/gen-builtin-catalogue.mjs [scripts/upstream/v1.36] [--out <file>]
//
// (--out writes elsewhere than src/generated/builtin-catalogue.ts; a test regenerates into a
// temporary file and compares, so the committed output never drifts from its inputs.)
//
// Steps, each the upstream rule it follows:
//  1. Discovery entries from api/discovery/aggregated_v2.json (/apis), replaced group version by
//     group version by the legacy APIResourceList documents vendored beside it (api__v1.json for
//     the core group, newer apis__<group>__<version>.json), converted as the apiserver converts
//     them (apiserver/pkg/endpoints/discovery/aggregated: ConvertGroupVersionIntoToDiscovery).
//     Subresources installed after the documents' commits come from
//     subresources-since-documents.json, each with the Go code that registers it.
//  2. The default set (pkg/controlplane/instance.go DefaultAPIResourceConfigSource): stable
//     versions enabled; every beta and alpha version disabled (betaAPIGroupVersionsDisabledByDefault,
//     alphaAPIGroupVersionsDisabledByDefault); legacyBetaEnabledByDefaultResources is empty since
//     flowcontrol v1beta3 was removed in 1.32. The documents list what a server with every API
//     enabled serves, so everything else is filtered out here.
//  3. The Go types of the release (k8s-api-kinds.json, from extract-api-kinds.mjs) decide which
//     kinds a stable version has: a kind a stable version registers but the documents list only at
//     a prerelease version of the group (a resource that went GA after the newest document) takes
//     that entry; a stable resource whose kind the release no longer registers is an error.
//  4. storageVersionHash (apiserver/pkg/endpoints/discovery/storageversionhash.go), for resources
//     with storage (those that serve watch; checked against the legacy documents): base64 of the
//     first 8 bytes of sha256("<group>/<version>/<Kind>") of the version the resource is stored
//     at: the group's preferred version, except where the storage factory says otherwise
//     (pkg/kubeapiserver/default_storage_factory_builder.go: events.k8s.io events cohabit with core
//     v1 Events; a resource new at a stable version stays at its beta one for a release).
//     Checked against every hash the vendored legacy documents carry.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const outFile = outAt >= 0 ? resolve(args[outAt + 1]) : join(root, 'src/generated/builtin-catalogue.ts');
const positional = args.filter((_, i) => i !== outAt && i !== outAt + 1);
const inputDir = resolve(root, positional[0] ?? 'scripts/upstream/v1.36');
const readJson = (name) => JSON.parse(readFileSync(join(inputDir, name), 'utf8'));

/** Kubernetes version priority (apimachinery version.CompareKubeAwareVersionStrings): GA > beta > alpha, higher first. */
export function compareKubeVersions(a, b) {
  const rank = (v) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [0, 0, 0];
    return [m[2] === 'alpha' ? 1 : m[2] === 'beta' ? 2 : 3, Number(m[1]), m[3] ? Number(m[3]) : 0];
  };
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return rb[i] - ra[i];
  return a < b ? -1 : a > b ? 1 : 0;
}

const isStable = (version) => /^v\d+$/.test(version);

// The storage factory of kube-apiserver 1.36 (pkg/kubeapiserver/default_storage_factory_builder.go
// at kubernetes/kubernetes@008b3652959ca58af8be3fb5b6ecfe9ae7638282, which marks the
// MutatingAdmissionPolicy overrides "remove in 1.37"):
/** AddCohabitatingResources(api.Resource("events"), events.Resource("events")): stored as core v1 Events. */
const COHABITING_STORAGE = { 'events.k8s.io/events': { group: '', version: 'v1' } };
/** ResourceEncodingOverrides: resources stored at an older version than their group's preferred one. */
const STORAGE_VERSION_OVERRIDES = {
  'coordination.k8s.io/leasecandidates': 'v1beta1',
  'admissionregistration.k8s.io/mutatingadmissionpolicies': 'v1beta1',
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings': 'v1beta1',
  'certificates.k8s.io/clustertrustbundles': 'v1beta1',
  'certificates.k8s.io/podcertificaterequests': 'v1beta1',
  'storagemigration.k8s.io/storagemigrations': 'v1beta1',
  'resource.k8s.io/devicetaintrules': 'v1alpha3',
  'resource.k8s.io/resourcepoolstatusrequests': 'v1alpha3',
  'scheduling.k8s.io/workloads': 'v1alpha2',
  'scheduling.k8s.io/podgroups': 'v1alpha2',
};

export function storageVersionHash(group, version, kind) {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** An APIResourceList (legacy discovery) as aggregated discovery resources (ConvertGroupVersionIntoToDiscovery). */
function legacyToAggregated(list) {
  const resources = [];
  const byName = new Map();
  for (const r of list.resources) {
    if (r.name.includes('/')) continue;
    const entry = {
      resource: r.name,
      responseKind: { group: r.group ?? '', kind: r.kind, version: r.version ?? '' },
      scope: r.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: r.singularName,
      verbs: r.verbs,
    };
    if (r.shortNames?.length) entry.shortNames = r.shortNames;
    if (r.categories?.length) entry.categories = r.categories;
    if (r.storageVersionHash) entry.upstreamStorageVersionHash = r.storageVersionHash;
    entry.fromLegacy = true;
    resources.push(entry);
    byName.set(r.name, entry);
  }
  for (const r of list.resources) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parent = byName.get(r.name.slice(0, slash));
    if (!parent) throw new Error(`${list.groupVersion}: subresource ${r.name} without its resource`);
    (parent.subresources ??= []).push({
      responseKind: { group: r.group ?? '', kind: r.kind, version: r.version ?? '' },
      subresource: r.name.slice(slash + 1),
      verbs: r.verbs,
    });
  }
  return resources;
}

function splitGroupVersion(gv) {
  const slash = gv.indexOf('/');
  return slash < 0 ? ['', gv] : [gv.slice(0, slash), gv.slice(slash + 1)];
}

function main() {
  const readme = readFileSync(join(inputDir, 'README.md'), 'utf8');
  const k8sVersion = basename(inputDir);

  // 1. Every group version the documents list, in the aggregated document's group order.
  const groups = new Map([['', new Map()]]);
  const aggregated = readJson('aggregated_v2.json');
  for (const item of aggregated.items) {
    const versions = new Map();
    for (const v of item.versions) versions.set(v.version, v.resources);
    groups.set(item.metadata.name, versions);
  }
  const legacyFiles = readdirSync(inputDir).filter((f) => /^apis?__.*\.json$/.test(f) && f !== 'apis.json');
  for (const file of legacyFiles.sort()) {
    const list = readJson(file);
    const [group, version] = splitGroupVersion(list.groupVersion);
    if (!groups.has(group)) groups.set(group, new Map());
    groups.get(group).set(version, legacyToAggregated(list));
  }

  // 1b. Subresources the release registers after the documents' commits, read from its Go code.
  for (const added of readJson('subresources-since-documents.json').subresources) {
    const [group, version] = splitGroupVersion(added.groupVersion);
    const parent = groups.get(group)?.get(version)?.find((r) => r.resource === added.resource);
    if (!parent) throw new Error(`subresources-since-documents.json: ${added.groupVersion} ${added.resource} is not in the documents`);
    parent.subresources ??= [];
    if (parent.subresources.some((s) => s.subresource === added.subresource)) {
      throw new Error(`subresources-since-documents.json: the documents already list ${added.resource}/${added.subresource}; drop the entry`);
    }
    parent.subresources.push({ responseKind: { group: '', kind: added.kind, version: '' }, subresource: added.subresource, verbs: added.verbs });
    // Discovery lists subresources by name, as the documents do.
    parent.subresources.sort((a, b) => (a.subresource < b.subresource ? -1 : 1));
  }

  // 3 (first half). What the release's Go types register, by group version.
  const goKinds = readJson('k8s-api-kinds.json');

  // 2. The default set: stable versions only.
  const served = [];
  for (const [group, versions] of groups) {
    const stable = [...versions.keys()].filter(isStable).sort(compareKubeVersions);
    if (stable.length === 0) continue;
    const entries = [];
    for (const version of stable) {
      const resources = [...versions.get(version)];
      const kinds = goKinds.groupVersions[`${group}/${version}`];
      if (kinds) {
        const listed = new Set(resources.flatMap((r) => [r.responseKind.kind, ...(r.subresources ?? []).map((s) => s.responseKind.kind)]));
        for (const kind of kinds) {
          if (listed.has(kind)) continue;
          // 3. A kind the stable version registers that a prerelease version of the group lists.
          const prerelease = [...versions.keys()].filter((v) => !isStable(v)).sort(compareKubeVersions);
          const from = prerelease.map((v) => versions.get(v).find((r) => r.responseKind.kind === kind)).find(Boolean);
          if (from) resources.push({ ...structuredClone(from), promotedFrom: prerelease.find((v) => versions.get(v).includes(from)) });
        }
        for (const r of resources) {
          if (!kinds.includes(r.responseKind.kind)) throw new Error(`${group}/${version} ${r.resource}: ${goKinds.source} does not register ${r.responseKind.kind}`);
        }
      }
      entries.push({ version, resources: resources.sort((a, b) => (a.resource < b.resource ? -1 : 1)) });
    }
    served.push({ group, entries });
  }

  // 4. Storage version hashes.
  const out = [];
  const checked = [];
  for (const { group, entries } of served) {
    for (const { version, resources } of entries) {
      for (const r of resources) {
        const kind = r.responseKind.kind;
        const storage = COHABITING_STORAGE[`${group}/${r.resource}`] ?? {
          group,
          version: STORAGE_VERSION_OVERRIDES[`${group}/${r.resource}`] ?? entries.find((e) => e.resources.some((x) => x.resource === r.resource)).version,
        };
        // Only resources backed by a store report a hash (the installer asks rest.StorageVersionProvider);
        // every store serves watch, the storage-less APIs (reviews, bindings, componentstatuses) do not.
        const hash = r.verbs.includes('watch') ? storageVersionHash(storage.group, storage.version, kind) : undefined;
        if (r.fromLegacy && (hash === undefined) !== (r.upstreamStorageVersionHash === undefined)) {
          throw new Error(`${group}/${version} ${r.resource}: upstream ${r.upstreamStorageVersionHash ? 'lists' : 'has no'} storageVersionHash, the watch rule says otherwise`);
        }
        if (r.upstreamStorageVersionHash !== undefined) {
          if (r.upstreamStorageVersionHash !== hash) {
            throw new Error(`${group}/${version} ${r.resource}: computed storageVersionHash ${hash} (${storage.group}/${storage.version}/${kind}), upstream lists ${r.upstreamStorageVersionHash}`);
          }
          checked.push(`${group}/${version}/${r.resource}`);
        }
        const entry = {
          group,
          version,
          resource: r.resource,
          kind,
          singular: r.singularResource,
          namespaced: r.scope === 'Namespaced',
          shortNames: r.shortNames ?? [],
          categories: r.categories ?? [],
          verbs: r.verbs,
          ...(hash ? { storageVersionHash: hash } : {}),
          subresources: (r.subresources ?? []).map((s) => {
            const sub = { name: s.subresource, kind: s.responseKind.kind, verbs: s.verbs };
            if (s.responseKind.group !== '' || s.responseKind.version !== '') Object.assign(sub, { group: s.responseKind.group, version: s.responseKind.version });
            return sub;
          }),
        };
        if (r.promotedFrom) entry.listedUpstreamAt = r.promotedFrom;
        out.push(entry);
      }
    }
  }

  const sourceLine = /^Source: (.*)$/m.exec(readme)?.[1] ?? relative(root, inputDir);
  const text = `// GENERATED by scripts/gen-builtin-catalogue.mjs from ${relative(root, inputDir)} (Kubernetes ${k8sVersion}:
// ${sourceLine}). Do not edit; rerun the script.
// Every resource a default kube-apiserver ${k8sVersion} serves (stable versions; beta and alpha are
// disabled by default), in discovery order: the core group, then the groups in the order /apis
// lists them, versions by preference, resources by name. ${checked.length} storage version hashes were
// checked against the upstream documents.

export interface BuiltinSubresourceFacts {
  name: string;
  /** Set when the subresource answers another group version's kind (autoscaling/v1 Scale). */
  group?: string;
  version?: string;
  kind: string;
  verbs: readonly string[];
}

export interface BuiltinResourceFacts {
  group: string;
  version: string;
  resource: string;
  kind: string;
  singular: string;
  namespaced: boolean;
  shortNames: readonly string[];
  categories: readonly string[];
  verbs: readonly string[];
  /** Absent for APIs without storage (reviews, bindings, componentstatuses). */
  storageVersionHash?: string;
  subresources: readonly BuiltinSubresourceFacts[];
  /** The prerelease version whose entry this stable resource took (newer than the documents). */
  listedUpstreamAt?: string;
}

export const BUILTIN_CATALOGUE_VERSION = ${JSON.stringify(k8sVersion)};

export const BUILTIN_RESOURCES: readonly BuiltinResourceFacts[] = [
${out.map((e) => `  ${JSON.stringify(e)},`).join('\n')}
];
`;
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, text);
  console.log(`wrote ${relative(root, outFile) || outFile}: ${out.length} resources in ${served.length} groups; ${checked.length} hashes checked`);
}

main();
