// The admission kinds' printers (pkg/printers/internalversion/printers.go, v1.36): webhook
// configurations count their webhooks; admission policies count their rules and name their param
// kind; bindings name their policy and param.
import type { KubeObject } from '../../apis/object.ts';
import { arr, byteCompare, obj, str } from './format.ts';
import { AGE, ageOf, NAME, nameOf, row, type BuiltinPrinter } from './printer-parts.ts';
import { column } from './table-types.ts';

function webhookConfigurations(): BuiltinPrinter {
  return {
    columns: [NAME, column('Webhooks', 'integer', 'Webhooks indicates the number of webhooks registered in this configuration'), AGE],
    print: (o, now) => row(nameOf(o), arr(o.webhooks).length, ageOf(o, now)),
  };
}

const PARAM_KIND_DOC = 'ParamKind specifies the kind of resources used to parameterize this policy';

/** A policy printer: its rule count (`validations` or `mutations`) and `apiVersion/kind` of its param kind. */
function policies(rulesColumn: string, rulesDoc: string, rulesField: string): BuiltinPrinter {
  return {
    columns: [NAME, column(rulesColumn, 'integer', rulesDoc), column('ParamKind', 'string', PARAM_KIND_DOC), AGE],
    print(o, now) {
      const spec = obj(o.spec);
      const paramKind = spec.paramKind === undefined || spec.paramKind === null ? '<unset>' : `${str(obj(spec.paramKind).apiVersion)}/${str(obj(spec.paramKind).kind)}`;
      return row(nameOf(o), arr(spec[rulesField]).length, paramKind, ageOf(o, now));
    },
  };
}

/** metav1.LabelSelectorRequirement's generated String(). */
const requirementString = (r: Record<string, unknown>): string =>
  `LabelSelectorRequirement{Key:${str(r.key)},Operator:${str(r.operator)},Values:[${arr(r.values).map(str).join(' ')}],}`;

/** metav1.LabelSelector's generated String() (gogo-protobuf): sorted match labels, then the expressions. */
function labelSelectorGoString(selector: unknown): string {
  const s = obj(selector);
  const labels = Object.entries(obj(s.matchLabels)).sort(([a], [b]) => byteCompare(a, b));
  const matchLabels = `map[string]string{${labels.map(([k, v]) => `${k}: ${str(v)},`).join('')}}`;
  const expressions = `[]LabelSelectorRequirement{${arr(s.matchExpressions).map((e) => `${requirementString(obj(e))},`).join('')}}`;
  return `&LabelSelector{MatchLabels:${matchLabels},MatchExpressions:${expressions},}`;
}

/** The param column of a policy binding: `namespace/name`, `*` for the namespace when unset, the selector, or `<unset>`. */
function paramName(o: KubeObject): string {
  const ref = obj(obj(o.spec).paramRef);
  if (obj(o.spec).paramRef === undefined || obj(o.spec).paramRef === null) return '<unset>';
  const name = str(ref.name);
  if (name !== '') return str(ref.namespace) !== '' ? `${str(ref.namespace)}/${name}` : `*/${name}`;
  if (ref.selector !== undefined && ref.selector !== null) return labelSelectorGoString(ref.selector);
  return '<unset>';
}

const bindings: BuiltinPrinter = {
  columns: [
    NAME,
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    AGE,
  ],
  print: (o, now) => row(nameOf(o), str(obj(o.spec).policyName), paramName(o), ageOf(o, now)),
};

export const ADMISSION_PRINTERS: Record<string, BuiltinPrinter> = {
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': webhookConfigurations(),
  'admissionregistration.k8s.io/validatingwebhookconfigurations': webhookConfigurations(),
  'admissionregistration.k8s.io/validatingadmissionpolicies': policies('Validations', 'Validations indicates the number of validation rules defined in this configuration', 'validations'),
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': bindings,
  'admissionregistration.k8s.io/mutatingadmissionpolicies': policies('Mutations', 'Mutation indicates the number of mutations rules defined in this configuration', 'mutations'),
  'admissionregistration.k8s.io/mutatingadmissionpolicybindings': bindings,
};
