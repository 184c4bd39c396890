import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/confirm.js';
import { forgetPlanView, forgetQuestion, forgetView } from '../../views/render-lifecycle.js';
import { pipedStdin } from '../../cli/stdin.js';
import { forgetMemories, planForget } from '../../core/memory/forget.js';
import { MAX_CONTENT_BYTES } from '../../core/memory/memory.js';
import { verifyForget } from '../../core/governance/verify.js';
import { UsageError } from '../../core/errors.js';
import { verifyView } from '../../views/render-governance.js';

export default class MemoryForget extends HippoCommand {
  static override summary = 'Forget memories for good: the rows, their search entries, their text in candidates and handoffs (and, asked, in snapshots).';
  static override description = `Unlike archive, this deletes. The memories (by id, or every memory of the agent whose text, subject or a tag holds --match TEXT) and their older versions are erased; their text leaves the prompts stored with candidates and handoffs; candidates citing them are marked "source forgotten"; with --match, candidates whose claim holds the text are deleted. On SQLite nothing of it stays in the database file, its write-ahead log or free pages. --purge-snapshots also rewrites every snapshot holding any of it (under the nightly lock).
The audit row (hippo rem runs) records ids and counts, never the text. What forget cannot reach — copies outside hippo (exports, backups, the filesystem's freed blocks, a PostgreSQL server's WAL and replicas): docs/decisions.md, "Forget".
Asks first on a terminal; needs --yes otherwise. --dry-run lists every memory, candidate claim and snapshot holding it and changes nothing. --match - reads the text from stdin (kept out of your shell history).`;
  static override examples = [
    '<%= config.bin %> memory forget mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --yes',
    '<%= config.bin %> memory forget --match "sk-live-" --dry-run',
    '<%= config.bin %> memory forget mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --cascade --yes',
    'printf %s "$FORGOTTEN_TEXT" | <%= config.bin %> memory forget --verify rcpt_01JD3Z8N6Q2W4E5R7T9Y1V3J5M',
    'printf %s "$SECRET" | <%= config.bin %> memory forget --match - --purge-snapshots --yes',
  ];
  static override strict = false;
  static override args = { ids: Args.string({ ignoreStdin: true, description: 'memory ids' }) };
  static override flags = {
    match: Flags.string({ description: 'forget every memory whose text, subject or a tag holds this text (exact, case-sensitive; "-" reads stdin)' }),
    'dry-run': Flags.boolean({ default: false, description: 'list what holds it (memories, candidate claims, snapshots); change nothing' }),
    'purge-snapshots': Flags.boolean({ default: false, description: 'also rewrite every snapshot holding it' }),
    cascade: Flags.boolean({
      default: false,
      description: 'also forget what was derived from it: insights promoted from it (recursively) and pending candidates citing it',
    }),
    verify: Flags.string({
      description: 'verify a receipt: re-scan the store, its files and every snapshot for the text piped on stdin (no memory ids or other flags with it)',
    }),
    yes: Flags.boolean({ char: 'y', default: false, description: 'do not ask for confirmation (required when not on a terminal)' }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(MemoryForget);
    if (flags.verify !== undefined) {
      // Verify reads a receipt and changes nothing: what would pick or erase memories is refused, not ignored.
      const extra = [
        argv.length > 0 && 'memory ids',
        flags.match !== undefined && '--match',
        flags['dry-run'] && '--dry-run',
        flags['purge-snapshots'] && '--purge-snapshots',
        flags.cascade && '--cascade',
      ].filter((item): item is string => typeof item === 'string');
      if (extra.length > 0) {
        throw new UsageError(
          'usage',
          `--verify takes a receipt id and the text on stdin, nothing else: drop ${extra.join(', ')} (the receipt names its memories; verify one receipt at a time)`,
          { details: { given: extra } },
        );
      }
      const text = (
        await pipedStdin('empty_match', 'pipe the forgotten text on stdin', { maxBytes: MAX_CONTENT_BYTES, slack: 2, what: 'the forgotten text' })
      ).replace(/\r?\n$/, '');
      const store = await this.existingStore(flags.db);
      return this.output(await verifyForget(store, { agentId: this.agentId(flags.agent), receiptId: flags.verify, text }), verifyView);
    }
    const match =
      flags.match === '-'
        ? (
            await pipedStdin('empty_match', 'pipe the text to match on stdin, or give it with --match TEXT', {
              maxBytes: MAX_CONTENT_BYTES,
              slack: 2,
              what: 'the text to match',
            })
          ).replace(/\r?\n$/, '')
        : flags.match;
    const store = await this.existingStore(flags.db);
    const options = {
      agentId: this.agentId(flags.agent),
      ids: argv as string[],
      match,
      purgeSnapshots: flags['purge-snapshots'],
      cascade: flags.cascade,
      signal: this.abortSignal,
    };
    if (flags['dry-run']) return this.output({ dryRun: true as const, ...(await planForget(store, options)) }, forgetPlanView);
    if (!flags.yes)
      await confirmDestructive(
        forgetQuestion(await planForget(store, { ...options, scanSnapshots: flags['purge-snapshots'] }), flags['purge-snapshots']),
        false,
      );
    this.output(await forgetMemories(store, options), forgetView);
  }
}
