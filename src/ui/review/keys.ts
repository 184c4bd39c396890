import type { Key } from 'ink';

/** One key press as ink reports it (type-only import: this module loads nothing at run time). */
export interface KeyPress {
  input: string;
  key: Key;
}
