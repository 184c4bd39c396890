import { describe, expect, it } from 'vitest';
import { refuseArgumentsNotUtf8 } from '../../src/cli/argv.js';
import { errorOf } from '../helpers/errors.js';

/** A /proc/self/cmdline as the kernel gives it: every argument's raw bytes, each ended by NUL. */
const cmdline =
  (...args: (string | Buffer)[]) =>
  () =>
    Buffer.concat(args.flatMap((arg) => [Buffer.from(arg), Buffer.from([0])]));
const bad = Buffer.concat([Buffer.from('secret '), Buffer.from([0xff, 0xfe])]); // two bytes no UTF-8 sequence starts with
const decoded = new TextDecoder().decode(bad); // what Node hands us: "secret \uFFFD\uFFFD"

describe('refuseArgumentsNotUtf8', () => {
  it('refuses an argument whose raw bytes are not UTF-8 (exit 2, not_utf8), naming its position, never its text', async () => {
    const error = await errorOf(() => refuseArgumentsNotUtf8(['--tag', 'x', decoded], cmdline('node', '/bin/run.js', 'memory', 'add', '--tag', 'x', bad)));
    expect(error).toMatchObject({ code: 'not_utf8', exitCode: 2, details: { argument: 3 } });
    expect(error.message).toMatch(/^argument 3 after the command name is not valid UTF-8 text/);
    expect(error.message).not.toContain('secret');
  });

  it('keeps a U+FFFD the user really typed (valid UTF-8 bytes EF BF BD)', () => {
    const typed = 'a real \uFFFD';
    expect(() => refuseArgumentsNotUtf8([typed], cmdline('node', '/bin/run.js', 'memory', 'add', typed))).not.toThrow();
  });

  it('does not read the command line at all when no argument holds U+FFFD', () => {
    let read = false;
    refuseArgumentsNotUtf8(['plain', 'é 🚀'], () => {
      read = true;
      return undefined;
    });
    expect(read).toBe(false);
  });

  it('takes the argument as given where no raw command line can be had (no /proc)', () => {
    expect(() => refuseArgumentsNotUtf8([decoded], () => undefined)).not.toThrow();
  });

  it('reads the real /proc/self/cmdline of this process by default', () => {
    // This process's own arguments are valid UTF-8, and a U+FFFD argument that is not among them is taken as typed.
    expect(() => refuseArgumentsNotUtf8(['\uFFFD'])).not.toThrow();
  });
});
