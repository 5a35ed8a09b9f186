// The log of one run of a container the kubelet stand-in runs, as the container runtime keeps it
// (one file per run, a timestamp on every line), and the kubelet's reading of it under
// PodLogOptions (pkg/kubelet/kuberuntime/logs/logs.go ReadLogs and logWriter): the last `tailLines`
// lines, lines older than `since` skipped, `timestamps` in RFC3339NanoFixed, output cut at
// `limitBytes`. Lines come from what the test programmed (all at the start of the run, or each
// `after` ms into it) and from what it appended while the run was going. Pure: no clock of its own.
import type { KubeObject } from '../../apis/object.ts';

/** A line (or lines) a container prints `after` milliseconds into its run. */
export interface TimedLogLine {
  after: number;
  text: string;
}

/** What a container prints: text at its start, or lines over time. */
export type ProgrammedLogs = string | readonly TimedLogLine[];

/** What `logs` in a kubelet rule may be: the log itself, or a function of the container and pod answering it. */
export type LogsBehavior = ProgrammedLogs | ((container: string, pod: KubeObject) => ProgrammedLogs);

/** One run of a container: from its start to its exit (undefined while it runs). */
export interface ContainerRun {
  startedAt: number;
  finishedAt?: number;
}

/** A line of the log file: when it was written and its text, newline included. */
export interface LogEntry {
  at: number;
  line: string;
}

/** How the kubelet cuts what it reads (kuberuntime logs.go LogOptions; since in epoch ms). */
export interface LogCut {
  tailLines?: number;
  since?: number;
  timestamps?: boolean;
  limitBytes?: number;
}

/** The lines of `text`, each ending in a newline (an unterminated last line is ended, as the runtime ends it). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.map((p) => `${p}\n`);
}

export function programmedLogs(source: LogsBehavior | undefined, container: string, pod: KubeObject): ProgrammedLogs {
  return typeof source === 'function' ? source(container, pod) : (source ?? '');
}

/**
 * The run's log file as it reads at `now`: the programmed lines due by then (not after the run
 * ended) and the appended ones, in the order written (programmed before appended at one instant).
 */
export function logEntries(programmed: ProgrammedLogs, appended: readonly LogEntry[], run: ContainerRun, now: number): LogEntry[] {
  const end = Math.min(now, run.finishedAt ?? Infinity);
  const timed: readonly TimedLogLine[] = typeof programmed === 'string' ? [{ after: 0, text: programmed }] : programmed;
  const entries: Array<LogEntry & { order: number }> = [];
  let order = 0;
  for (const item of timed) {
    const at = run.startedAt + Math.max(0, item.after);
    if (at > end) continue;
    for (const line of splitLines(item.text)) entries.push({ at, line, order: order++ });
  }
  for (const entry of appended) entries.push({ ...entry, order: order++ });
  entries.sort((a, b) => a.at - b.at || a.order - b.order);
  return entries.map(({ at, line }) => ({ at, line }));
}

/** When the next programmed line of the run falls due after `now`, if one does before the run ends. */
export function nextLineAt(programmed: ProgrammedLogs, run: ContainerRun, now: number): number | undefined {
  if (typeof programmed === 'string') return undefined;
  let next: number | undefined;
  for (const item of programmed) {
    const at = run.startedAt + Math.max(0, item.after);
    if (at > now && at <= (run.finishedAt ?? Infinity) && (next === undefined || at < next)) next = at;
  }
  return next;
}

/** types.RFC3339NanoFixed of a clock reading: nanoseconds always nine digits. */
export function logTimestamp(at: number): string {
  return new Date(at).toISOString().replace(/Z$/, '000000Z');
}

/** The bytes the kubelet writes for `entries` and how many of the limit remain; `remaining` 0 means the limit was hit. */
export function writeEntries(entries: readonly LogEntry[], cut: LogCut, remaining = cut.limitBytes ?? Infinity): { bytes: Buffer; remaining: number } {
  const chunks: Buffer[] = [];
  for (const entry of entries) {
    if (remaining <= 0) break;
    if (cut.since !== undefined && entry.at < cut.since) continue;
    let bytes = Buffer.from(cut.timestamps ? `${logTimestamp(entry.at)} ${entry.line}` : entry.line);
    if (bytes.length > remaining) bytes = bytes.subarray(0, remaining);
    remaining -= bytes.length;
    chunks.push(bytes);
  }
  return { bytes: Buffer.concat(chunks), remaining };
}

/** The last `tailLines` entries (all without it): where ReadLogs starts reading. */
export function tailOf(entries: readonly LogEntry[], tailLines: number | undefined): readonly LogEntry[] {
  if (tailLines === undefined) return entries;
  return tailLines === 0 ? [] : entries.slice(-tailLines);
}
