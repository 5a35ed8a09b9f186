// The REST mapping of one cluster: which group/version/resource is served, and by which type.
// Built-ins are added at start; CRDs add and remove entries while the cluster runs.
import type { ResourceType } from './resource-type.ts';

export class ApiCatalog {
  private readonly byPath = new Map<string, ResourceType>();
  private readonly order: ResourceType[] = [];

  add(type: ResourceType): void {
    const key = pathKey(type.group, type.version, type.plural);
    if (this.byPath.has(key)) throw new Error(`invariant: ${key} is already served`);
    this.byPath.set(key, type);
    this.order.push(type);
  }

  remove(group: string, version: string, plural: string): void {
    const key = pathKey(group, version, plural);
    const type = this.byPath.get(key);
    if (!type) return;
    this.byPath.delete(key);
    this.order.splice(this.order.indexOf(type), 1);
  }

  find(group: string, version: string, plural: string): ResourceType | undefined {
    return this.byPath.get(pathKey(group, version, plural));
  }

  findKind(group: string, version: string, kind: string): ResourceType | undefined {
    return this.order.find((t) => t.group === group && t.version === version && t.kind === kind);
  }

  /** Whether any resource is served at this group version. */
  servesGroupVersion(group: string, version: string): boolean {
    return this.order.some((t) => t.group === group && t.version === version);
  }

  /** Served types in the order they were added (discovery order). */
  all(): readonly ResourceType[] {
    return this.order;
  }
}

const pathKey = (group: string, version: string, plural: string) => `${group}/${version}/${plural}`;
