// printFlowSchema and printPriorityLevelConfiguration (pkg/printers/internalversion/printers.go,
// v1.36), their swagger-doc column descriptions generated (printer-docs.generated.ts). A list of
// FlowSchemas prints in FlowSchemaSequence order: by matchingPrecedence, then by name.
import type { KubeObject } from '../../apis/object.ts';
import { PRINTER_DOCS } from '../../generated/printer-docs.generated.ts';
import { arr, byteCompare, num, obj, str } from './format.ts';
import { AGE, ageOf, NAME, nameOf, row, type BuiltinPrinter } from './printer-parts.ts';
import { column } from './table-types.ts';

const doc = (key: string): string => PRINTER_DOCS[key] ?? '';

export const flowSchemas: BuiltinPrinter = {
  columns: [
    NAME,
    column('PriorityLevel', 'string', doc('priorityLevelConfigurationReference.name')),
    column('MatchingPrecedence', 'string', doc('flowSchemaSpec.matchingPrecedence')),
    column('DistinguisherMethod', 'string', doc('flowSchemaSpec.distinguisherMethod')),
    AGE,
    column('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const method = spec.distinguisherMethod == null ? '<none>' : str(obj(spec.distinguisherMethod).type);
    // The Dangling condition's status, "?" until the APF controller (not run by kubefake) sets it.
    const dangling = arr(obj(o.status).conditions).map(obj).find((c) => c.type === 'Dangling');
    return row(nameOf(o), str(obj(spec.priorityLevelConfiguration).name), num(spec.matchingPrecedence), method, ageOf(o, now), dangling ? str(dangling.status) : '?');
  },
  order: (items: readonly KubeObject[]) =>
    [...items].sort((a, b) => num(obj(a.spec).matchingPrecedence) - num(obj(b.spec).matchingPrecedence) || byteCompare(nameOf(a), nameOf(b))),
};

export const priorityLevelConfigurations: BuiltinPrinter = {
  columns: [
    NAME,
    column('Type', 'string', doc('priorityLevelConfigurationSpec.type')),
    column('NominalConcurrencyShares', 'string', doc('limitedPriorityLevelConfiguration.nominalConcurrencyShares')),
    column('Queues', 'string', doc('queuingConfiguration.queues')),
    column('HandSize', 'string', doc('queuingConfiguration.handSize')),
    column('QueueLengthLimit', 'string', doc('queuingConfiguration.queueLengthLimit')),
    AGE,
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const limited = spec.limited == null ? undefined : obj(spec.limited);
    const queuing = limited && obj(limited.limitResponse).queuing != null ? obj(obj(limited.limitResponse).queuing) : undefined;
    return row(
      nameOf(o),
      str(spec.type),
      limited ? num(limited.nominalConcurrencyShares) : '<none>',
      queuing ? num(queuing.queues) : '<none>',
      queuing ? num(queuing.handSize) : '<none>',
      queuing ? num(queuing.queueLengthLimit) : '<none>',
      ageOf(o, now),
    );
  },
};
