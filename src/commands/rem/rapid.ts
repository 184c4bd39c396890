import { Flags } from '@oclif/core';
import { HippoCommand } from '../../cli/base-command.js';
import { modelClient, resolveModel } from '../../cli/model.js';
import { cut, painter, terminalWidth } from '../../cli/output.js';
import { distillFlags } from '../../cli/rem-flags.js';
import { distill, distillDryRun, type DistillOptions } from '../../core/rem/distill.js';
import { createHandoff } from '../../core/rem/handoff.js';
import type { Scope } from '../../core/rem/gather.js';
import type { Focus } from '../../core/rem/prompt.js';
import { parseSince } from '../../core/time.js';

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
    'dry-run': Flags.boolean({ default: false, description: 'gather and report the prompt size and refs; no model call, no writes' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RemRapid);
    const store = this.store(flags.db);
    const options: DistillOptions = {
      agentId: this.agentId(flags.agent),
      focus: flags.focus as Focus,
      scope: flags.scope as Scope,
      since: parseSince(flags.since, '--since', store.clock()),
      tag: flags.tag,
      maxMemories: flags['max-memories'],
      maxCandidates: flags['max-candidates'],
      unreflected: flags.unreflected,
      restageRejected: flags['restage-rejected'],
      signal: this.abortSignal,
    };

    if (flags['dry-run']) {
      const result = distillDryRun(store, options);
      this.output(result, () =>
        [
          `would send ${result.counts.gathered} memories (${result.promptChars} prompt characters); ${result.counts.eligible} in scope, ${result.counts.leftOutByCount + result.counts.leftOutByBudget} left out by the caps`,
          ...result.refs.map((ref) => `  ${ref.ref.padEnd(4)} ${ref.memoryId}${ref.truncated ? ' (truncated)' : ''}`),
        ].join('\n'),
      );
      return;
    }

    if (flags['prompt-only']) {
      const result = createHandoff(store, options);
      if (this.jsonMode) {
        this.output({ handoff: result.handoff, prompt: result.prompt, schema: result.schema }, () => undefined);
      } else {
        process.stdout.write(`${result.prompt}\n`);
        this.note(
          `handoff ${result.handoff.id}: ${result.counts.gathered} memories, expires ${result.handoff.expiresAt}\nsend the prompt above to any LLM, save its answer, then:\n  hippo rem ingest ${result.handoff.id} answer.json`,
        );
      }
      return;
    }

    const config = flags.via === undefined ? await resolveModel(flags.model) : await resolveModel(`command:${flags.via}`, '--via');
    const result = await distill(store, await modelClient(config), options);
    const paint = painter(process.stdout);
    const width = terminalWidth(process.stdout);
    this.output({ run: result.run, model: result.model, candidates: result.candidates, counts: result.counts }, () => {
      const { counts } = result;
      const lines = [
        `model ${result.model ?? 'none'} · gathered ${counts.gathered} · staged ${counts.staged} · skipped ${counts.skippedDuplicates} duplicate, ${counts.skippedRejected} previously rejected${counts.leftOutByCount + counts.leftOutByBudget > 0 ? ` · ${counts.leftOutByCount + counts.leftOutByBudget} left out by the caps` : ''}`,
        ...result.candidates.map((candidate) => `${paint('bold', candidate.id)} ${cut(candidate.claim, Math.max(20, width - candidate.id.length - 1))}`),
      ];
      if (result.candidates.length > 0) lines.push(paint('dim', 'review: hippo rem candidates'));
      return lines.join('\n');
    });
  }
}
