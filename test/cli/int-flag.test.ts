import { describe, expect, it } from 'vitest';
import { parseIntFlag } from '../../src/cli/int-flag.js';
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
