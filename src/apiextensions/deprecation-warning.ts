// The warning a deprecated CRD version sends with every response (customresource_handler.go
// defaultDeprecationWarning): the version's own deprecationWarning, else
// `<group>/<version> <Kind> is deprecated`, with `; use <group>/<newer> <Kind>` naming the
// highest-priority served, non-deprecated version that is newer than the deprecated one.
import { compareKubeVersions } from '../apis/discovery.ts';

export interface VersionDeprecation {
  name: string;
  served?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string | null;
}

export function deprecationWarningOf(group: string, kind: string, version: VersionDeprecation, versions: readonly VersionDeprecation[]): string | undefined {
  if (!version.deprecated) return undefined;
  if (typeof version.deprecationWarning === 'string') return version.deprecationWarning;
  const message = `${group}/${version.name} ${kind} is deprecated`;
  // compareKubeVersions sorts higher priority first: negative means `v.name` is newer.
  const newer = versions.filter((v) => v.served && !v.deprecated && compareKubeVersions(v.name, version.name) < 0).map((v) => v.name);
  if (newer.length === 0) return message;
  newer.sort(compareKubeVersions);
  return `${message}; use ${group}/${newer[0]} ${kind}`;
}
