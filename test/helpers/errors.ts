import { HippoError } from '../../src/core/errors.js';

/** The HippoError `fn` throws or rejects with; fails the test if it succeeds or fails with something else. */
export async function errorOf(fn: () => unknown): Promise<HippoError> {
  try {
    await fn();
  } catch (error) {
    if (error instanceof HippoError) return error;
    throw error;
  }
  throw new Error('expected an error');
}
