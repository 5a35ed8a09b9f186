// printValidatingAdmissionPolicy, printValidatingAdmissionPolicyBinding and their Mutating twins
// (kubernetes pkg/printers/internalversion/printers.go): the number of validations or mutations
// and the paramKind of a policy; the policy name and paramRef of a binding.
import type { KubeObject } from '../../apis/object.ts';
import { arr, obj, str } from './format.ts';
import { AGE, ageOf, NAME, nameOf, row, type BuiltinPrinter } from './printer-parts.ts';
import { column } from './table-types.ts';

const PARAM_KIND = column('ParamKind', 'string', 'ParamKind specifies the kind of resources used to parameterize this policy');

function paramKindOf(o: KubeObject): string {
  const spec = obj(o.spec);
  if (spec.paramKind === undefined || spec.paramKind === null) return '<unset>';
  const pk = obj(spec.paramKind);
  return `${str(pk.apiVersion)}/${str(pk.kind)}`;
}

function policyPrinter(countColumn: string, countDoc: string, listField: string): BuiltinPrinter {
  return {
    columns: [NAME, column(countColumn, 'integer', countDoc), PARAM_KIND, AGE],
    print: (o, now) => row(nameOf(o), arr(obj(o.spec)[listField]).length, paramKindOf(o), ageOf(o, now)),
  };
}

/** metav1.LabelSelector's generated String() (`&LabelSelector{MatchLabels:map[string]string{k: v,},MatchExpressions:[]LabelSelectorRequirement{},}`). */
function labelSelectorString(sel: Record<string, unknown>): string {
  const labels = obj(sel.matchLabels);
  const keys = Object.keys(labels).sort();
  const matchLabels = `map[string]string{${keys.map((k) => `${k}: ${str(labels[k])},`).join('')}}`;
  const exprs = arr(sel.matchExpressions)
    .map(obj)
    .map((e) => `LabelSelectorRequirement{Key:${str(e.key)},Operator:${str(e.operator)},Values:[${arr(e.values).map(str).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:${matchLabels},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}

/** The binding's paramRef: `namespace/name`, `*\/name` without a namespace, or the selector. */
function paramRefOf(o: KubeObject): string {
  const spec = obj(o.spec);
  if (spec.paramRef === undefined || spec.paramRef === null) return '<unset>';
  const pr = obj(spec.paramRef);
  const name = str(pr.name);
  if (name !== '') return str(pr.namespace) !== '' ? `${str(pr.namespace)}/${name}` : `*/${name}`;
  if (pr.selector !== undefined && pr.selector !== null) return labelSelectorString(obj(pr.selector));
  return '<unset>';
}

const bindings: BuiltinPrinter = {
  columns: [
    NAME,
    column('PolicyName', 'string', 'PolicyName indicates the policy definition which the policy binding binded to'),
    column('ParamRef', 'string', 'ParamRef indicates the param resource which sets the configration param'),
    AGE,
  ],
  print: (o, now) => row(nameOf(o), str(obj(o.spec).policyName), paramRefOf(o), ageOf(o, now)),
};

export const validatingAdmissionPolicies = policyPrinter('Validations', 'Validations indicates the number of validation rules defined in this configuration', 'validations');
export const mutatingAdmissionPolicies = policyPrinter('Mutations', 'Mutation indicates the number of mutations rules defined in this configuration', 'mutations');
export const admissionPolicyBindings = bindings;
