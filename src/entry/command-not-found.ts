import type { Hook } from '@oclif/core';
import { ExitCode } from '../core/errors.js';
import { closest, editDistance, orList, prefixed } from '../core/suggest.js';
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
/** At most this many commands are offered for a name typed in part (`rem re` starts four). */
const SHOWN = 4;

const hook: Hook<'command_not_found'> = async function ({ id, argv, config }) {
  const typedArgv = process.argv.slice(2);
  const ids = config.commands.filter((command) => !command.hidden).map((command) => command.id);
  const isTopic = (words: readonly string[]) => config.topics.some((topic) => topic.name === words.join(':'));
  const firstFlag = typedArgv.findIndex((word) => word.startsWith('-'));
  const leading = typedArgv.slice(0, firstFlag < 0 ? typedArgv.length : firstFlag);
  // The words as oclif saw them, when the command line does not start with them (`hippo --json serch`).
  const words = leading.length > 0 ? leading : id.split(':');
  // A name typed only in part (`rem cand`) is read as the start of the commands it begins (distance -1: before any typo).
  let best: { length: number; suggestions: string[]; distance: number } | undefined;
  for (let length = 1; length <= Math.min(words.length, 4); length++) {
    const name = words.slice(0, length);
    if (isTopic(name)) continue;
    const sameDepth = ids.filter((command) => command.split(':').length === length);
    const starts = prefixed(name.join(':'), sameDepth);
    if (starts.length > 0) {
      if (best === undefined || best.distance >= -1) best = { length, suggestions: starts.slice(0, SHOWN), distance: -1 };
      continue;
    }
    const suggestion = closest(name.join(':'), sameDepth);
    if (suggestion === undefined) continue;
    const distance = editDistance(name.join(':'), suggestion);
    if (best === undefined || distance <= best.distance) best = { length, suggestions: [suggestion], distance };
  }
  // Without a suggestion, the name is the topic words typed and the word after them.
  const topicWords = words.findIndex((_, index) => !isTopic(words.slice(0, index + 1)));
  const nameLength = best?.length ?? Math.min(words.length, topicWords < 0 ? words.length : topicWords + 1);
  const typed = words.slice(0, nameLength).join(' ');
  const after = leading.length > 0 ? typedArgv.slice(nameLength) : [...words.slice(nameLength), ...(argv ?? [])];
  // `hippo -v` (and -V): the version flag, as most tools spell it short.
  const bare = typedArgv.filter((word) => word !== '--json');
  const version = bare.length === 1 && /^-[vV]$/.test(bare[0]!) ? `${config.bin} --version` : undefined;
  const meant = version ? [version] : (best?.suggestions.map((suggestion) => `${config.bin} ${shellQuote([...suggestion.split(':'), ...after])}`) ?? []);
  const guess = meant.length === 0 ? '' : meant.length === 1 ? `; did you mean: ${meant[0]}` : `; did you mean one of: ${orList(meant)}`;
  // What was typed is echoed: never a password in it (issue 27).
  const message = maskSecrets(`"${typed}" is not a ${config.bin} command${guess} (see ${config.bin} --help)`, typedSecrets());
  if (wantsJson(leading.length > 0 ? typedArgv : [...(argv ?? []), ...typedArgv])) {
    const named = version ? ['--version'] : (best?.suggestions.map((suggestion) => suggestion.replaceAll(':', ' ')) ?? []);
    const details = {
      command: maskSecrets(typed, typedSecrets()),
      ...(named.length > 0 ? { suggestion: named[0] } : {}),
      ...(named.length > 1 ? { suggestions: named } : {}),
    };
    process.stdout.write(`${jsonText({ error: { code: 'unknown_command', message, details } })}\n`);
  } else {
    process.stderr.write(`Error: ${safeText(message, { lines: 'join' })}\n`);
  }
  process.exit(ExitCode.usage);
};

export default hook;
