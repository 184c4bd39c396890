import * as Flags from '@oclif/core/flags';
import type { DistillOptions } from '../core/rem/distill.js';
import { SCOPES, type Scope } from '../core/rem/gather.js';
import { FOCUSES, type Focus } from '../core/rem/prompt.js';
import { parseSince, SINCE_HELP } from '../core/time.js';
import { intFlag } from './int-flag.js';

/** The gather and prompt flags shared by `rem rapid` (and its --prompt-only / --via forms). */
export const distillFlags = {
  focus: Flags.string({ options: [...FOCUSES], default: 'lessons', description: 'what to look for' }),
  scope: Flags.string({ options: [...SCOPES], default: 'recent', description: 'which memories to read' }),
  since: Flags.string({ default: '24h', description: `recent scope: how far back (${SINCE_HELP})` }),
  tag: Flags.string({ char: 't', description: 'tagged scope: the tag (required with --scope tagged)' }),
  'max-memories': intFlag({ min: 1, max: 10_000, default: 50, description: 'at most this many memories in the prompt' }),
  'max-candidates': intFlag({ min: 1, max: 100, default: 10, description: 'an answer with more candidates is rejected whole' }),
  unreflected: Flags.boolean({ default: false, description: 'only memories never distilled before' }),
  'restage-rejected': Flags.boolean({ default: false, description: 'stage a claim again even if it was rejected before' }),
};

interface DistillFlagValues {
  focus: string;
  scope: string;
  since: string;
  tag?: string;
  'max-memories': number;
  'max-candidates': number;
  unreflected: boolean;
  'restage-rejected': boolean;
}

/** The distillation options those flags stand for. */
export function distillOptions(flags: DistillFlagValues, context: { agentId: string; now: Date; signal: AbortSignal }): DistillOptions {
  return {
    agentId: context.agentId,
    focus: flags.focus as Focus,
    scope: flags.scope as Scope,
    since: parseSince(flags.since, '--since', context.now),
    tag: flags.tag,
    maxMemories: flags['max-memories'],
    maxCandidates: flags['max-candidates'],
    unreflected: flags.unreflected,
    restageRejected: flags['restage-rejected'],
    signal: context.signal,
  };
}
