// Table and PartialObjectMetadata output (apiserver-wire.md §6). The handler negotiates with
// negotiateView and, when a view was asked for, renders the GET/LIST answer with renderView.
export { negotiateView, type Negotiated, type ObjectView } from './negotiate.ts';
export { renderView, includeObjectFrom, type ViewSource } from './render-view.ts';
export { toTable, tableColumns, type IncludeObject, type TableOptions } from './table.ts';
export { partialObjectMetadata, partialObjectMetadataList, type MetaVersion } from './partial-metadata.ts';
export { humanDuration } from './human-duration.ts';
export { loadBuiltinPrinters } from './printers-on-demand.ts';
