import * as Flags from '@oclif/core/flags';
import { DURABILITIES, type Durability } from '../core/memory/memory.js';
import { parseSince, SINCE_HELP } from '../core/time.js';

/** The filters `search` and `memory list` share: the same flags, the same meaning. */
export const memoryFilterFlags = {
  tag: Flags.string({ char: 't', description: 'only memories with this tag' }),
  since: Flags.string({ description: `only memories created since then (${SINCE_HELP})` }),
  durability: Flags.string({ options: [...DURABILITIES], description: 'only memories of this durability' }),
  'include-archived': Flags.boolean({ default: false, description: 'include archived memories' }),
};

interface FilterFlagValues {
  tag?: string;
  since?: string;
  durability?: string;
  'include-archived': boolean;
}

/** The core options those flags stand for; `--since` is read relative to the store's clock. */
export function memoryFilters(flags: FilterFlagValues, now: Date): { tag?: string; since?: Date; durability?: Durability; includeArchived: boolean } {
  return {
    tag: flags.tag,
    since: flags.since === undefined ? undefined : parseSince(flags.since, '--since', now),
    durability: flags.durability as Durability | undefined,
    includeArchived: flags['include-archived'],
  };
}
