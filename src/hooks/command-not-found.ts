import type { Hook } from '@oclif/core';
import { ExitCode } from '../core/errors.js';
import { wantsJson } from '../cli/base-command.js';

/** An unknown command is a usage error (exit 2), and under --json it is still one JSON document on stdout. */
const hook: Hook<'command_not_found'> = async function ({ id, argv }) {
  const name = id.replaceAll(':', ' ');
  const message = `"${name}" is not a hippo command; see hippo --help`;
  if (wantsJson([...(argv ?? []), ...process.argv.slice(2)])) {
    process.stdout.write(`${JSON.stringify({ error: { code: 'unknown_command', message } })}\n`);
  } else {
    process.stderr.write(`Error: ${message}\n`);
  }
  process.exit(ExitCode.usage);
};

export default hook;
