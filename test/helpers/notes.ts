import { writeFileSync } from 'node:fs';

/**
 * A large file of plain prose with an e-mail and a phone number every eighth line and an address every fortieth, about
 * `mib` MiB: what a long `extract` reads.
 */
export function writeNotes(path: string, mib: number): void {
  const words = 'the meeting moved to next week because the team wanted more time to review the budget and the plan for spring'.split(' ');
  const lines: string[] = [];
  for (let index = 0, size = 0; size < mib * 1024 * 1024; index++) {
    let line = `${Array.from({ length: 14 }, (_, k) => words[(index * 7 + k * 3) % words.length]).join(' ')}.`;
    if (index % 8 === 0) line += ` Mail anna${index}@example.com or call +353 1 555 ${String(index % 10_000).padStart(4, '0')}.`;
    if (index % 40 === 0) line += ' Office: 12 Main Street, Dublin 2, D02 X285.';
    lines.push(line);
    size += line.length + 1;
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
}
