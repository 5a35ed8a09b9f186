// Which representation a GET's Accept header selects, as endpoints/handlers/negotiation
// NegotiateMediaTypeOptions and RequestScope.AllowsMediaTypeTransform decide it: the first clause
// (in goautoneg order) that a served media type matches and whose `as`/`g`/`v` transform the
// endpoint allows. kubectl's `application/json;as=Table;v=v1;g=meta.k8s.io,...,application/json`
// picks the first clause; a protobuf-only or `v=v1alpha1` Table clause is skipped.
import type { OutputFormat } from '../media-types.ts';
import type { MetaVersion } from './partial-metadata.ts';
import { parseGoautonegAccept } from '../goautoneg.ts';

/** A transformed representation: a Table, or PartialObjectMetadata(List) (`list` = the List form was asked). */
export type ObjectView = { kind: 'Table'; version: MetaVersion } | { kind: 'PartialObjectMetadata'; version: MetaVersion; list: boolean };

export interface Negotiated {
  /** The serializer the chosen clause matched. */
  format: OutputFormat;
  /** undefined: the resource itself, untransformed. */
  view: ObjectView | undefined;
}

/** kubefake serves JSON and YAML (protobuf clauses are skipped: no protobuf encoder). */
const SERIALIZERS: { type: string; subtype: string; format: OutputFormat; streams: boolean }[] = [
  { type: 'application', subtype: 'json', format: 'json', streams: true },
  { type: 'application', subtype: 'yaml', format: 'yaml', streams: false },
];

/**
 * The negotiated format and view, or undefined when no clause can be served (the apiserver's
 * 406 `only the following media types are accepted: ...`). An empty Accept means plain JSON.
 */
export function negotiateView(accept: string | null): Negotiated | undefined {
  if (!accept) return { format: 'json', view: undefined };
  for (const clause of parseGoautonegAccept(accept)) {
    for (const s of SERIALIZERS) {
      const matches =
        (clause.type === s.type && (clause.subtype === s.subtype || clause.subtype === '*')) || (clause.type === '*' && clause.subtype === '*');
      if (!matches) continue;
      const view = acceptedView(clause.params, s);
      if (view !== false) return { format: s.format, view };
    }
  }
  return undefined;
}

/** acceptMediaTypeOptions + AllowsMediaTypeTransform: the view, or false to skip this pairing. */
function acceptedView(params: Record<string, string>, s: (typeof SERIALIZERS)[number]): ObjectView | undefined | false {
  let convert: { kind: string; group: string; version: string } | undefined;
  for (const [k, v] of Object.entries(params)) {
    switch (k) {
      case 'as':
      case 'g':
      case 'v':
        convert ??= { kind: '', group: '', version: '' };
        if (k === 'as') convert.kind = v;
        else if (k === 'g') convert.group = v;
        else convert.version = v;
        break;
      case 'stream':
        if (v && (!s.streams || v !== 'watch')) return false;
        break;
      case 'sv':
        // AllowsServerVersion: only the meta group version the scope serves.
        if (v && v !== 'v1') return false;
        break;
    }
  }
  if (!convert) return undefined;
  if (convert.group !== 'meta.k8s.io' || (convert.version !== 'v1' && convert.version !== 'v1beta1')) return false;
  switch (convert.kind) {
    case 'Table':
      return { kind: 'Table', version: convert.version }; // json and yaml both can carry a Table
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList':
      return { kind: 'PartialObjectMetadata', version: convert.version, list: convert.kind === 'PartialObjectMetadataList' };
  }
  return false;
}

