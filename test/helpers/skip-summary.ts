/**
 * A vitest reporter that runs after the default one and says what did not run and why: one line per program a
 * skipped test needed (with the files and the install command, see `requirements.ts`), and one line per other test
 * skipped with a note (`context.skip(note)`), per file and note. Nothing when every test ran.
 */
import type { Reporter, TestModule } from 'vitest/node';

interface Group {
  install: string;
  files: Map<string, number>;
}

export default class SkipSummary implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const tools = new Map<string, Group>();
    const others = new Map<string, number>();
    for (const module of testModules) {
      for (const test of module.children.allTests('skipped')) {
        const result = test.result();
        if (result.state !== 'skipped') continue;
        const missing = test.meta().missingTool;
        if (missing) {
          const group = tools.get(missing.name) ?? { install: missing.install, files: new Map<string, number>() };
          tools.set(missing.name, group);
          group.files.set(module.relativeModuleId, (group.files.get(module.relativeModuleId) ?? 0) + 1);
        } else if (result.note) {
          const key = `${module.relativeModuleId}: ${result.note}`;
          others.set(key, (others.get(key) ?? 0) + 1);
        }
      }
    }
    const lines: string[] = [];
    for (const [name, group] of tools) {
      const count = [...group.files.values()].reduce((sum, n) => sum + n, 0);
      const files = [...group.files].map(([file, n]) => `${file} (${n})`).join(', ');
      lines.push(
        `SKIPPED ${count} test${count === 1 ? '' : 's'}: ${name} is not installed — ${files}. ` +
          `Install it to run them: ${group.install}. (In CI, CI=true, they fail instead.)`,
      );
    }
    for (const [key, count] of others) lines.push(`SKIPPED ${count} test${count === 1 ? '' : 's'} in ${key}`);
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
