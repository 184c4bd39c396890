import type { Hook } from '@oclif/core';
import { ExitCode } from '../core/errors.js';
import { jsonText } from '../core/json-text.js';

/**
 * Under --json stdout holds exactly one JSON document, also where oclif itself would answer in text: a topic named
 * alone (`hippo memory --json` would print the topic's help) and a plugin's command, which has no --json
 * (`hippo autocomplete bash --json` would fail with oclif's own text error). Both become a usage error (exit 2) as a
 * JSON document. An explicit --help/-h still prints help. Kept light: it runs before every command.
 */
const hook: Hook<'init'> = async function ({ id, argv: hookArgv, config }) {
  const argv = process.argv.slice(2);
  if (id === 'help') return helpOfNothing(hookArgv, config);
  const end = argv.indexOf('--');
  const flags = end < 0 ? argv : argv.slice(0, end);
  if (!flags.includes('--json') || flags.includes('--help') || flags.includes('-h') || id === undefined) return;
  const command = config.findCommand(id);
  const name = id.replaceAll(':', ' ');
  let message: string | undefined;
  if (!command && config.findTopic(id)) {
    message = `"${name}" is a group of commands, not a command: give one of them (${config.bin} ${name} --help lists them)`;
  } else if (command && command.pluginName !== config.name) {
    message = `${config.bin} ${name} has no --json; run it without`;
  }
  if (message === undefined) return;
  process.stdout.write(`${jsonText({ error: { code: 'usage', message, details: { command: name } } })}\n`);
  process.exit(ExitCode.usage);
};

export default hook;

/**
 * `hippo help NAME…` for a name that is no command or topic: a usage error (exit 2) with a "did you mean", as an
 * unknown command gets, instead of the help plugin's bare "Command nosuch not found." (issue 30). The suggestion code
 * loads only then.
 */
async function helpOfNothing(argv: readonly string[], config: Parameters<Hook<'init'>>[0]['config']): Promise<void> {
  const words = argv.filter((word) => !word.startsWith('-'));
  if (words.length === 0) return;
  const name = words.join(':');
  if (config.findCommand(name) || config.findTopic(name)) return;
  const { suggestions, orList } = await import('../core/suggest.js');
  const { safeText } = await import('../core/text-guard.js');
  const known = new Set([...config.commands.filter((command) => !command.hidden).map((command) => command.id), ...config.topics.map((topic) => topic.name)]);
  const meant = suggestions(name, known)
    .slice(0, 4)
    .map((id) => `${config.bin} help ${id.replaceAll(':', ' ')}`);
  const typed = words.join(' ');
  const message = `"${typed}" is not a ${config.bin} command or topic${meant.length > 0 ? `; did you mean: ${orList(meant)}` : ''} (see ${config.bin} --help)`;
  if (argv.includes('--json')) {
    process.stdout.write(`${jsonText({ error: { code: 'unknown_command', message, details: { command: typed } } })}\n`);
  } else process.stderr.write(`Error: ${safeText(message, { lines: 'join' })}\n`);
  process.exit(ExitCode.usage);
}
