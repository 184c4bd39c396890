import type { Hook } from '@oclif/core';
import { ExitCode } from '../core/errors.js';
import { jsonText } from '../core/json-text.js';

/**
 * Under --json stdout holds exactly one JSON document, also where oclif itself would answer in text: a topic named
 * alone (`hippo memory --json` would print the topic's help) and a plugin's command, which has no --json
 * (`hippo autocomplete bash --json` would fail with oclif's own text error). Both become a usage error (exit 2) as a
 * JSON document. An explicit --help/-h still prints help. Kept light: it runs before every command.
 */
const hook: Hook<'init'> = async function ({ id, config }) {
  const argv = process.argv.slice(2);
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
