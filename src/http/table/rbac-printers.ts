// printRoleBinding and printClusterRoleBinding (kubernetes pkg/printers/internalversion/printers.go);
// Roles and ClusterRoles have no printer and get the default table.
import type { KubeObject } from '../../apis/object.ts';
import type { BuiltinPrinter } from './printer-parts.ts';
import { arr, obj, str } from './format.ts';
import { AGE, ageOf, NAME, nameOf, row } from './printer-parts.ts';
import { column, type ColumnDefinition } from './table-types.ts';

const ROLE_BINDING_ROLE_REF_DOC =
  'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';
const CLUSTER_ROLE_BINDING_ROLE_REF_DOC =
  'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';

/** rbac.SubjectsStrings: users, groups and `namespace/name` service accounts, in subject order. */
function subjectsStrings(o: KubeObject): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const s of arr(o.subjects).map(obj)) {
    if (s.kind === 'ServiceAccount') serviceAccounts.push(`${str(s.namespace)}/${str(s.name)}`);
    else if (s.kind === 'User') users.push(str(s.name));
    else if (s.kind === 'Group') groups.push(str(s.name));
  }
  return [users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
}

function bindingPrinter(roleRefDoc: string, noun: string): BuiltinPrinter {
  const columns: ColumnDefinition[] = [
    NAME,
    column('Role', 'string', roleRefDoc),
    AGE,
    column('Users', 'string', `Users in the ${noun}`, { priority: 1 }),
    column('Groups', 'string', `Groups in the ${noun}`, { priority: 1 }),
    column('ServiceAccounts', 'string', `ServiceAccounts in the ${noun}`, { priority: 1 }),
  ];
  return {
    columns,
    print(o, now) {
      const roleRef = obj(o.roleRef);
      return row(nameOf(o), `${str(roleRef.kind)}/${str(roleRef.name)}`, ageOf(o, now), ...subjectsStrings(o));
    },
  };
}

export const roleBindings = bindingPrinter(ROLE_BINDING_ROLE_REF_DOC, 'roleBinding');
export const clusterRoleBindings = bindingPrinter(CLUSTER_ROLE_BINDING_ROLE_REF_DOC, 'clusterRoleBinding');
