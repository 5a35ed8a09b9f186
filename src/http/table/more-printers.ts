// Printers of kinds whose columns printers.go (v1.36) describes with its own texts: PodTemplate,
// PodDisruptionBudget and IngressClass.
import { containerCells, formatLabels, num, obj, str } from './format.ts';
import { AGE, ageOf, NAME, nameOf, row, type BuiltinPrinter } from './printer-parts.ts';
import { column } from './table-types.ts';

export const podTemplates: BuiltinPrinter = {
  columns: [
    NAME,
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  print(o) {
    const template = obj(o.template);
    const [names, images] = containerCells(template.spec);
    return row(nameOf(o), names, images, formatLabels(obj(template.metadata).labels));
  },
};

/** intstr.IntOrString.String(): the number or the string. */
const intOrString = (v: unknown): string => (typeof v === 'number' ? String(v) : str(v));

export const podDisruptionBudgets: BuiltinPrinter = {
  columns: [
    NAME,
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    AGE,
  ],
  print(o, now) {
    const spec = obj(o.spec);
    const set = (v: unknown) => v !== undefined && v !== null;
    return row(
      nameOf(o),
      set(spec.minAvailable) ? intOrString(spec.minAvailable) : 'N/A',
      set(spec.maxUnavailable) ? intOrString(spec.maxUnavailable) : 'N/A',
      num(obj(o.status).disruptionsAllowed),
      ageOf(o, now),
    );
  },
};

export const ingressClasses: BuiltinPrinter = {
  columns: [
    NAME,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    AGE,
  ],
  print(o, now) {
    const spec = obj(o.spec);
    let parameters = '<none>';
    if (spec.parameters !== undefined && spec.parameters !== null) {
      const p = obj(spec.parameters);
      parameters = str(p.kind);
      if (typeof p.apiGroup === 'string') parameters += `.${p.apiGroup}`;
      parameters += `/${str(p.name)}`;
    }
    return row(nameOf(o), str(spec.controller), parameters, ageOf(o, now));
  },
};
