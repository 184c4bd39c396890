import { HippoError } from '../../src/core/errors.js';

/** The HippoError `fn` throws; fails the test if it throws nothing or something else. */
export function errorOf(fn: () => unknown): HippoError {
  try {
    fn();
  } catch (error) {
    if (error instanceof HippoError) return error;
    throw error;
  }
  throw new Error('expected an error');
}
