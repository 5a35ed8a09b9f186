// The fenced code blocks of a Markdown page, for the tests that hold the README and docs/ to the code.

export interface Block {
  lang: string;
  body: string;
  line: number;
  file?: string;
}

/** The fenced code blocks of a Markdown text, each with the file its marker line names, if any. */
export function codeBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`line ${i + 1}: unclosed code block`);
    const marker = /^<!-- file: (\S+) -->$/.exec(lines[i - 1] ?? '');
    blocks.push({ lang: open[1]!, body: lines.slice(i + 1, end).join('\n') + '\n', line: i + 1, ...(marker ? { file: marker[1] } : {}) });
    i = end;
  }
  return blocks;
}
