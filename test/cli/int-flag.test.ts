import { describe, expect, it } from 'vitest';
import { intFlag, parseIntFlag } from '../../src/cli/int-flag.js';
import { ERROR_CODES } from '../../src/core/errors.js';
import { COMMANDS } from '../../src/entry/commands.js';
import { errorOf } from '../helpers/errors.js';

describe('parseIntFlag: one integer flag rule for every command', () => {
  const range = { min: 1, max: 1000 };

  it('accepts whole numbers inside the range, both ends included, with a sign or spaces around', () => {
    expect(['1', '1000', '+7', ' 42 ', '007'].map((input) => parseIntFlag(input, 'limit', range))).toEqual([1, 1000, 7, 42, 7]);
  });

  it.each(['0', '1001', '-1', '99999999999999999999', '9007199254740993', '1.5', '1e3', 'ten', '', '0x10'])(
    'refuses %j with exit 2 and code bad_<flag>, saying the range',
    async (input) => {
      const error = await errorOf(() => parseIntFlag(input, 'max-memories', range));
      expect(error).toMatchObject({ code: 'bad_max_memories', exitCode: 2, details: { flag: 'max-memories', min: 1, max: 1000 } });
      expect(error.message).toBe(`--max-memories must be a whole number from 1 to 1000 (got "${input}")`);
    },
  );

  it('cuts a long value in the message', async () => {
    expect((await errorOf(() => parseIntFlag('9'.repeat(100), 'limit', range))).message).toBe(
      `--limit must be a whole number from 1 to 1000 (got "${'9'.repeat(32)}…")`,
    );
  });
});

describe('every integer flag of every command has its code in ERROR_CODES', () => {
  it('gives bad_<flag> (never the bad_value fallback) for each intFlag in the command registry', async () => {
    const parse = intFlag({ min: 0, max: 1 }).parse;
    const names = new Set<string>();
    for (const command of Object.values(COMMANDS)) {
      for (const [name, flag] of Object.entries({ ...command.baseFlags, ...command.flags })) {
        if ((flag as { parse?: unknown }).parse === parse) names.add(name);
      }
    }
    expect([...names].sort()).toEqual([
      'keep-daily',
      'keep-days',
      'keep-hourly',
      'keep-last',
      'keep-weekly',
      'limit',
      'max-candidates',
      'max-memories',
      'port',
      'top',
    ]);
    for (const name of names) {
      const error = await errorOf(() => parseIntFlag('-5', name, { min: 0, max: 1 }));
      expect(error.code).toBe(`bad_${name.replaceAll('-', '_')}`);
      expect(ERROR_CODES).toContain(error.code);
    }
    // A flag whose code was never listed still fails as bad input (exit 2), under the generic code.
    expect(await errorOf(() => parseIntFlag('-5', 'brand-new', { min: 0, max: 1 }))).toMatchObject({ code: 'bad_value', exitCode: 2 });
  });
});
