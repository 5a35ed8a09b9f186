// Serialised OpenAPI documents of a catalog, rebuilt only when what they describe changes. The
// catalog changes while a cluster runs (CRDs come and go), so every request checks a cheap
// fingerprint: the identity of each ResourceType and of its schema plus the fields the documents
// read. A schema object mutated in place is not noticed; the CRD machinery replaces types instead.
import { createHash } from 'node:crypto';
import type { ApiCatalog } from '../catalog.ts';
import type { ResourceType } from '../resource-type.ts';
import { discoveryDocument, discoveryRoutes, groupVersionDocument, typesByGroupVersion, type DocumentInfo } from './documents.ts';
import { swaggerDocument } from './swagger-v2.ts';

export interface SerializedDocument {
  body: string | Uint8Array;
  /** Upper-case hex SHA-512 of body: the `?hash=` of serverRelativeURL and the ETag (kube-openapi computeETag). */
  hash: string;
  /** When this content was first built (Last-Modified). */
  lastModified: Date;
}

interface Cached {
  fingerprint: string;
  doc: SerializedDocument;
}

const ids = new WeakMap<object, number>();
let nextId = 1;
const idOf = (o: object): number => {
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = nextId++));
  return id;
};

const typeFingerprint = (t: ResourceType): string =>
  [idOf(t), t.schema ? idOf(t.schema) : 0, t.group, t.version, t.kind, t.listKind, t.plural, t.namespaced, t.unstructured, t.returnDeletedObject, t.verbs.join(','), t.subresources.join(',')].join('|');

export function serialize(doc: unknown, now: Date = new Date()): SerializedDocument {
  const body = JSON.stringify(doc);
  return { body, hash: createHash('sha512').update(body).digest('hex').toUpperCase(), lastModified: now };
}

export class OpenAPIService {
  private readonly info: DocumentInfo;
  private readonly v3 = new Map<string, Cached>();
  private v2: Cached | undefined;

  constructor(info: DocumentInfo) {
    this.info = info;
  }

  /** Every v3 document key (`api/v1`, `apis/apps/v1`, `api`, `version`, …) with its current document. */
  documents(catalog: ApiCatalog): Map<string, SerializedDocument> {
    const types = catalog.all();
    const out = new Map<string, SerializedDocument>();
    const live = new Set<string>();
    for (const [key, group] of typesByGroupVersion(types)) {
      live.add(key);
      out.set(key, this.cached(key, group.map(typeFingerprint).join(';'), () => groupVersionDocument(group, this.info)));
    }
    const builtinGroups = [...new Set(types.filter((t) => !t.unstructured).map((t) => t.group))].sort().join(',');
    for (const [key, routes] of discoveryRoutes(types)) {
      live.add(key);
      out.set(key, this.cached(key, builtinGroups, () => discoveryDocument(routes, this.info)));
    }
    for (const key of this.v3.keys()) if (!live.has(key)) this.v3.delete(key);
    return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** The swagger 2.0 document of everything served. */
  swagger(catalog: ApiCatalog): SerializedDocument {
    const types = catalog.all();
    const fingerprint = types.map(typeFingerprint).join(';');
    if (this.v2?.fingerprint !== fingerprint) this.v2 = { fingerprint, doc: serialize(swaggerDocument(types, this.info)) };
    return this.v2.doc;
  }

  private cached(key: string, fingerprint: string, build: () => unknown): SerializedDocument {
    const hit = this.v3.get(key);
    if (hit?.fingerprint === fingerprint) return hit.doc;
    const doc = serialize(build());
    // Rebuilt but identical content keeps its original Last-Modified.
    const kept = hit && hit.doc.hash === doc.hash ? hit.doc : doc;
    this.v3.set(key, { fingerprint, doc: kept });
    return kept;
  }
}
