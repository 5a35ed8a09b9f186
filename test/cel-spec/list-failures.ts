// Prints known-failures.txt: every non-protobuf cel-spec case kubefake/cel fails, with its error.
//   node test/cel-spec/list-failures.ts > test/cel-spec/known-failures.txt
import { FILES, runFile } from './run.ts';

const lines: string[] = [];
let total = 0;
let passed = 0;
for (const f of FILES) {
  for (const c of runFile(f)) {
    if (c.proto) continue;
    total++;
    if (c.passed) passed++;
    else lines.push(`${c.name}: ${(c.detail ?? '').replace(/\n.*/s, '')}`);
  }
}
const header = [
  '# Non-protobuf cel-spec cases kubefake/cel fails (name: first line of the error, or "wrong value").',
  '# Regenerate with `node test/cel-spec/list-failures.ts > test/cel-spec/known-failures.txt` and review the difference.',
  `# ${passed}/${total} non-protobuf cases pass (${((100 * passed) / total).toFixed(1)} %).`,
];
process.stdout.write([...header, ...lines].join('\n') + '\n');
