/**
 * Command-line arguments that were not valid UTF-8. Node decodes argv before any of our code runs, turning each bad
 * byte into U+FFFD (�); by then `memory add "$(printf 'bad \xff')"` looks like text, and would be stored mangled.
 * stdin and files are read strictly (docs/design.md §10); arguments get the same rule here, in the one base command.
 *
 * How it tells a bad byte from a real U+FFFD a user typed (docs/decisions.md, "Arguments that are not UTF-8"): only an
 * argument holding U+FFFD is looked at — the usual case costs nothing. On Linux, `/proc/self/cmdline` holds the
 * arguments exactly as the kernel passed them, NUL-separated; an argument is refused when one of those raw entries
 * decodes (the way Node did) to that very argument and is not valid UTF-8. Where there is no /proc (macOS), a raw
 * form cannot be had, and an argument holding U+FFFD is taken as given: it may be a real U+FFFD.
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { UsageError } from '../core/errors.js';

const REPLACEMENT = '\uFFFD';

/** Throws `not_utf8` (exit 2) when one of `args` came from bytes that are not UTF-8; never shows the argument. */
export function refuseArgumentsNotUtf8(args: readonly string[], cmdline: () => Buffer | undefined = procCmdline): void {
  const suspects = args.filter((arg) => arg.includes(REPLACEMENT));
  if (suspects.length === 0) return;
  const raw = cmdline();
  if (raw === undefined) return;
  const entries = splitNul(raw);
  const lenient = new TextDecoder('utf-8');
  for (const arg of suspects) {
    const bad = entries.some((entry) => lenient.decode(entry) === arg && !isUtf8(entry));
    if (bad) {
      throw new UsageError(
        'not_utf8',
        `argument ${args.indexOf(arg) + 1} after the command name is not valid UTF-8 text (its bad bytes would be stored as U+FFFD); convert it (e.g. iconv -t UTF-8), or pipe the text on stdin`,
        { details: { argument: args.indexOf(arg) + 1 } },
      );
    }
  }
}

function splitNul(raw: Buffer): Buffer[] {
  const entries: Buffer[] = [];
  let start = 0;
  for (let at = raw.indexOf(0); at !== -1; at = raw.indexOf(0, start)) {
    entries.push(raw.subarray(start, at));
    start = at + 1;
  }
  if (start < raw.length) entries.push(raw.subarray(start));
  return entries;
}

function procCmdline(): Buffer | undefined {
  try {
    return readFileSync('/proc/self/cmdline');
  } catch {
    return undefined;
  }
}
