// printRuntimeClass, printEndpointSlice, printCSINode, printCSIDriver and printCSIStorageCapacity
// (pkg/printers/internalversion/printers.go, v1.36), their swagger-doc column descriptions
// generated (printer-docs.generated.ts). RuntimeClass's Handler column quotes
// metav1.ObjectMeta{}.SwaggerDoc()["handler"], which does not exist: its description is empty.
import { PRINTER_DOCS } from '../../generated/printer-docs.generated.ts';
import { arr, obj, str } from './format.ts';
import { AGE, ageOf, NAME, nameOf, row, type BuiltinPrinter } from './printer-parts.ts';
import { column } from './table-types.ts';

const doc = (key: string): string => PRINTER_DOCS[key] ?? '';
const MAX_LISTED = 3;

export const runtimeClasses: BuiltinPrinter = {
  columns: [NAME, column('Handler', 'string', ''), AGE],
  print: (o, now) => row(nameOf(o), str(o.handler), ageOf(o, now)),
};

/** listWithMoreString: the first three, then `+ N more...`; `<unset>` for none. */
function listWithMore(all: string[]): string {
  const shown = all.slice(0, MAX_LISTED).join(',');
  if (all.length > MAX_LISTED) return `${shown} + ${all.length - MAX_LISTED} more...`;
  return shown === '' ? '<unset>' : shown;
}

/** formatDiscoveryPorts: each port's number, else its name, else `*`. */
const discoveryPorts = (ports: unknown): string =>
  listWithMore(arr(ports).map((p) => {
    const port = obj(p);
    return typeof port.port === 'number' ? String(port.port) : typeof port.name === 'string' ? port.name : '*';
  }));

/** formatDiscoveryEndpoints: every address of every endpoint. */
const discoveryEndpoints = (endpoints: unknown): string => listWithMore(arr(endpoints).flatMap((e) => arr(obj(e).addresses).map(str)));

export const endpointSlices: BuiltinPrinter = {
  columns: [
    NAME,
    column('AddressType', 'string', doc('endpointSlice.addressType')),
    column('Ports', 'string', doc('endpointSlice.ports')),
    column('Endpoints', 'string', doc('endpointSlice.endpoints')),
    AGE,
  ],
  print: (o, now) => row(nameOf(o), str(o.addressType), discoveryPorts(o.ports), discoveryEndpoints(o.endpoints), ageOf(o, now)),
};

export const csiNodes: BuiltinPrinter = {
  columns: [NAME, column('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'), AGE],
  print: (o, now) => row(nameOf(o), arr(obj(o.spec).drivers).length, ageOf(o, now)),
};

export const csiDrivers: BuiltinPrinter = {
  columns: [
    NAME,
    column('AttachRequired', 'boolean', doc('csiDriverSpec.attachRequired')),
    column('PodInfoOnMount', 'boolean', doc('csiDriverSpec.podInfoOnMount')),
    column('StorageCapacity', 'boolean', doc('csiDriverSpec.storageCapacity')),
    column('TokenRequests', 'string', doc('csiDriverSpec.tokenRequests')),
    column('RequiresRepublish', 'boolean', doc('csiDriverSpec.requiresRepublish')),
    column('Modes', 'string', doc('csiDriverSpec.volumeLifecycleModes')),
    AGE,
  ],
  print(o, now) {
    const spec = obj(o.spec);
    // Unset pointers print as printCSIDriver's fallbacks: attachRequired true, the others false.
    const tokenRequests = Array.isArray(spec.tokenRequests) ? spec.tokenRequests.map((t) => str(obj(t).audience)).join(',') : '<unset>';
    const modes = arr(spec.volumeLifecycleModes).map(str).join(',') || '<none>';
    return row(nameOf(o), spec.attachRequired !== false, spec.podInfoOnMount === true, spec.storageCapacity === true, tokenRequests, spec.requiresRepublish === true, modes, ageOf(o, now));
  },
};

export const csiStorageCapacities: BuiltinPrinter = {
  columns: [NAME, column('StorageClassName', 'string', doc('csiStorageCapacity.storageClassName')), column('Capacity', 'string', doc('csiStorageCapacity.capacity'))],
  // Stored quantities are already in canonical form (Quantity.String()).
  print: (o) => row(nameOf(o), str(o.storageClassName), typeof o.capacity === 'string' ? o.capacity : '<unset>'),
};
