import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMOKE } from './options';

const BENCHMARKS_MD = join(__dirname, '..', 'docs', 'benchmarks.md');

/**
 * Puts a benchmark's section (`<!-- bench:<name>:begin -->` … `end -->`) into docs/benchmarks.md,
 * replacing the one there or appending `## bench:<name>`, `intro` and the table. In smoke mode the
 * figures mean nothing: the table is printed and the document left alone.
 */
export function writeBenchmarkSection(name: string, lines: string[], intro: string): void {
  const begin = `<!-- bench:${name}:begin -->`;
  const end = `<!-- bench:${name}:end -->`;
  const table = [begin, ...lines, end].join('\n');
  if (SMOKE) {
    console.log(`smoke mode: docs/benchmarks.md left as it was; the figures of this run:\n${lines.join('\n')}`);
    return;
  }
  let text = existsSync(BENCHMARKS_MD) ? readFileSync(BENCHMARKS_MD, 'utf8') : '# Benchmarks\n';
  if (text.includes(begin)) text = text.replace(new RegExp(`${begin}[\\s\\S]*?${end}`), () => table);
  else text += `\n## bench:${name}\n\n${intro}\n\n${table}\n`;
  writeFileSync(BENCHMARKS_MD, text);
}
