// The admission webhooks of the CronTab example, written as an operator would write them: pure
// functions from the AdmissionRequest to a decision, mounted with kubefake's admissionWebhook()
// in tests (and behind any HTTPS server in production).
// - defaulting (mutating): a CronTab without spec.cronSpec gets the daily schedule, and every
//   CronTab the label naming its controller;
// - validating: spec.cronSpec must have five fields, and spec.image a tag other than `latest`.
import type { AdmissionDecision, AdmissionRequest, JsonPatchOperation } from '../../src/index.ts';

export const DEFAULT_SCHEDULE = '0 0 * * *';
export const MANAGED_BY = 'crontab-controller';

interface CronTabObject {
  metadata?: { labels?: Record<string, string> };
  spec?: { cronSpec?: string; image?: string };
}

export function defaultCronTab(request: AdmissionRequest): AdmissionDecision {
  const crontab = request.object as CronTabObject | null;
  const patch: JsonPatchOperation[] = [];
  if (crontab?.spec && !crontab.spec.cronSpec) patch.push({ op: 'add', path: '/spec/cronSpec', value: DEFAULT_SCHEDULE });
  if (!crontab?.metadata?.labels) patch.push({ op: 'add', path: '/metadata/labels', value: { 'app.kubernetes.io/managed-by': MANAGED_BY } });
  else if (crontab.metadata.labels['app.kubernetes.io/managed-by'] !== MANAGED_BY) {
    patch.push({ op: 'add', path: '/metadata/labels/app.kubernetes.io~1managed-by', value: MANAGED_BY });
  }
  return { allowed: true, patch };
}

export function validateCronTab(request: AdmissionRequest): AdmissionDecision {
  const spec = (request.object as CronTabObject | null)?.spec ?? {};
  const problems: string[] = [];
  if ((spec.cronSpec ?? '').trim().split(/\s+/).length !== 5) problems.push(`spec.cronSpec ${JSON.stringify(spec.cronSpec)} must have 5 fields`);
  const tag = /:([^:/]+)$/.exec(spec.image ?? '')?.[1];
  if (!tag || tag === 'latest') problems.push(`spec.image ${JSON.stringify(spec.image)} must name a tag other than latest`);
  if (problems.length === 0) return { allowed: true };
  return { allowed: false, status: { code: 422, reason: 'Invalid', message: problems.join('; ') } };
}
