import type { Hook } from '@oclif/core';
import { ExitCode } from '../core/errors.js';
import { closest, editDistance } from '../core/suggest.js';
import { jsonText } from '../core/json-text.js';
import { safeText } from '../core/text-guard.js';
import { typedSecrets, wantsJson } from '../cli/base-command.js';
import { shellQuote } from '../views/hints.js';
import { maskSecrets } from '../core/paths.js';

/**
 * An unknown command is a usage error (exit 2) with a "did you mean" when a command is near (`hippo serch foo` →
 * `hippo search foo`), and under --json it is still one JSON document on stdout. oclif folds the arguments into the
 * id it could not find (`serch:foo`, and splits an argument at its colons), so the words are read from the command
 * line as typed: the leading words (before the first flag) are tried as a name of one, two, three… words against the
 * commands of that many words, the nearest wins (on a tie the longer name), and everything else typed — arguments and
 * flags — follows the suggested name unchanged. A word that is a topic (`rem`) is never read as a typo of a command.
 * What was typed passes the text guard: it is text from outside. Never a prompt: a script must not hang here.
 */
const hook: Hook<'command_not_found'> = async function ({ id, argv, config }) {
  const typedArgv = process.argv.slice(2);
  const ids = config.commands.filter((command) => !command.hidden).map((command) => command.id);
  const isTopic = (words: readonly string[]) => config.topics.some((topic) => topic.name === words.join(':'));
  const firstFlag = typedArgv.findIndex((word) => word.startsWith('-'));
  const leading = typedArgv.slice(0, firstFlag < 0 ? typedArgv.length : firstFlag);
  // The words as oclif saw them, when the command line does not start with them (`hippo --json serch`).
  const words = leading.length > 0 ? leading : id.split(':');
  let best: { length: number; suggestion: string; distance: number } | undefined;
  for (let length = 1; length <= Math.min(words.length, 4); length++) {
    const name = words.slice(0, length);
    if (isTopic(name)) continue;
    const sameDepth = ids.filter((command) => command.split(':').length === length);
    const suggestion = closest(name.join(':'), sameDepth);
    if (suggestion === undefined) continue;
    const distance = editDistance(name.join(':'), suggestion);
    if (best === undefined || distance <= best.distance) best = { length, suggestion, distance };
  }
  // Without a suggestion, the name is the topic words typed and the word after them.
  const topicWords = words.findIndex((_, index) => !isTopic(words.slice(0, index + 1)));
  const nameLength = best?.length ?? Math.min(words.length, topicWords < 0 ? words.length : topicWords + 1);
  const typed = words.slice(0, nameLength).join(' ');
  const after = leading.length > 0 ? typedArgv.slice(nameLength) : [...words.slice(nameLength), ...(argv ?? [])];
  const meant = best === undefined ? undefined : `${config.bin} ${shellQuote([...best.suggestion.split(':'), ...after])}`;
  // What was typed is echoed: never a password in it (issue 27).
  const message = maskSecrets(`"${typed}" is not a ${config.bin} command${meant ? `; did you mean: ${meant}` : ''} (see ${config.bin} --help)`, typedSecrets());
  if (wantsJson(leading.length > 0 ? typedArgv : [...(argv ?? []), ...typedArgv])) {
    const details = { command: maskSecrets(typed, typedSecrets()), ...(best ? { suggestion: best.suggestion.replaceAll(':', ' ') } : {}) };
    process.stdout.write(`${jsonText({ error: { code: 'unknown_command', message, details } })}\n`);
  } else {
    process.stderr.write(`Error: ${safeText(message, { lines: 'join' })}\n`);
  }
  process.exit(ExitCode.usage);
};

export default hook;
