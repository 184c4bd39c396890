import { Flags } from '@oclif/core';
import { FOCUSES } from '../core/rem/prompt.js';
import { SCOPES } from '../core/rem/gather.js';

/** The gather and prompt flags shared by `rem rapid` (and its --prompt-only / --via forms). */
export const distillFlags = {
  focus: Flags.string({ options: [...FOCUSES], default: 'lessons', description: 'what to look for' }),
  scope: Flags.string({ options: [...SCOPES], default: 'recent', description: 'which memories to read' }),
  since: Flags.string({ default: '24h', description: 'recent scope: how far back (90m, 24h, 7d, or an ISO date)' }),
  tag: Flags.string({ description: 'tagged scope: the tag (required with --scope tagged)' }),
  'max-memories': Flags.integer({ default: 50, min: 1, description: 'at most this many memories in the prompt' }),
  'max-candidates': Flags.integer({ default: 10, min: 1, description: 'an answer with more candidates is rejected whole' }),
  unreflected: Flags.boolean({ default: false, description: 'only memories never distilled before' }),
  'restage-rejected': Flags.boolean({ default: false, description: 'stage a claim again even if it was rejected before' }),
};
