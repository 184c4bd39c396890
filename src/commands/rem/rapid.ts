import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { modelClient, resolveRunModel } from '../../cli/model.js';
import { redactFlag, redactMode } from '../../cli/redact-flag.js';
import { distillFlags, distillOptions } from '../../cli/rem-flags.js';
import { distillDryRunView, distillView, handoffView } from '../../views/render-rem.js';
import { distill, distillDryRun } from '../../core/rem/distill.js';
import { createHandoff } from '../../core/rem/handoff.js';
import type { Destination } from '../../core/redaction.js';

export default class RemRapid extends HippoCommand {
  static override summary = 'Distill recent memories into candidate insights (staged for review, never kept automatically).';
  static override description =
    "Gathers the agent's recent memories, asks the model for insights that cite them, verifies every citation, and stages what passes as pending candidates. --prompt-only prints the prompt for any LLM instead (bring the answer back with `hippo rem ingest`); --via runs a CLI model command for this one run.";
  static override examples = [
    '<%= config.bin %> rem rapid --agent ops-agent',
    '<%= config.bin %> rem rapid --focus decisions --since 7d --model ollama:llama3.2',
    '<%= config.bin %> rem rapid --prompt-only > prompt.txt',
    "<%= config.bin %> rem rapid --via 'ollama run llama3.2'",
    '<%= config.bin %> rem rapid --dry-run --scope all',
  ];
  static override flags = {
    ...distillFlags,
    model: Flags.string({ description: 'provider:model for this run (overrides HIPPO_MODEL and the config file)' }),
    via: Flags.string({ description: 'run this shell command as the model: prompt on stdin, answer on stdout', exclusive: ['model', 'prompt-only'] }),
    'prompt-only': Flags.boolean({ default: false, description: 'print the prompt and record a handoff instead of calling a model' }),
    'dry-run': Flags.boolean({
      default: false,
      description: 'gather and report the prompt size, refs and what redaction would replace; no model call, no writes',
    }),
    redact: redactFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RemRapid);
    const store = await this.existingStore(flags.db);
    const options = {
      ...distillOptions(flags, { agentId: this.agentId(flags.agent), now: store.clock(), signal: this.abortSignal }),
      redact: redactMode(flags.redact),
    };
    if (flags['dry-run']) return this.output(await distillDryRun(store, { ...options, destination: await dryRunDestination(flags) }), distillDryRunView);
    if (flags['prompt-only']) return this.output(await createHandoff(store, options), handoffView);
    this.output(await distill(store, await modelClient(await resolveRunModel(flags)), options), distillView);
  }
}

/** Where a dry run's prompt would go: a person (--prompt-only), the --via command, or the model in force (if any). */
async function dryRunDestination(flags: { 'prompt-only': boolean; model?: string; via?: string }): Promise<Destination | 'none'> {
  if (flags['prompt-only']) return 'handoff';
  const config = await resolveRunModel(flags);
  if (!config) return 'none';
  const { destinationOf } = await import('../../core/redaction.js');
  return destinationOf(config);
}
