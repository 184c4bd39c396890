import type { Hook } from '@oclif/core';
import { ExitCode } from '../core/errors.js';
import { closest } from '../core/suggest.js';
import { jsonText, safeText } from '../core/text.js';
import { wantsJson } from '../cli/base-command.js';
import { shellQuote } from '../cli/hints.js';

/**
 * An unknown command is a usage error (exit 2) with a "did you mean" when a command is near (`hippo serch foo` →
 * `hippo search foo`), and under --json it is still one JSON document on stdout. oclif folds the arguments into the
 * id it could not find (`serch:foo`), so the longest leading words that are near a command are taken as the name.
 * What was typed passes the text guard: it is text from outside. Never a prompt: a script must not hang here.
 */
const hook: Hook<'command_not_found'> = async function ({ id, argv, config }) {
  const ids = config.commands.filter((command) => !command.hidden).map((command) => command.id);
  const parts = id.split(':');
  const isTopic = (words: string[]) => config.topics.some((topic) => topic.name === words.join(':'));
  let name = parts.slice(0, Math.max(1, parts.findIndex((_, index) => !isTopic(parts.slice(0, index + 1))) + 1));
  let suggestion: string | undefined;
  for (let length = parts.length; length >= 1 && suggestion === undefined; length--) {
    suggestion = closest(parts.slice(0, length).join(':'), ids);
    if (suggestion !== undefined) name = parts.slice(0, length);
  }
  const rest = [...parts.slice(name.length), ...(argv ?? [])];
  const typed = name.join(' ');
  const meant = suggestion === undefined ? undefined : `${config.bin} ${shellQuote([...suggestion.split(':'), ...rest])}`;
  const message = `"${typed}" is not a ${config.bin} command${meant ? `; did you mean: ${meant}` : ''} (see ${config.bin} --help)`;
  if (wantsJson([...(argv ?? []), ...process.argv.slice(2)])) {
    const details = { command: typed, ...(suggestion ? { suggestion: suggestion.replaceAll(':', ' ') } : {}) };
    process.stdout.write(`${jsonText({ error: { code: 'unknown_command', message, details } })}\n`);
  } else {
    process.stderr.write(`Error: ${safeText(message, { lines: 'join' })}\n`);
  }
  process.exit(ExitCode.usage);
};

export default hook;
