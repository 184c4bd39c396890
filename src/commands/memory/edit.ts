import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { editView } from '../../views/render-lifecycle.js';
import { pipedStdin } from '../../cli/stdin.js';
import { contentFromEditor, setTags, tagFlagRefusal } from '../../cli/edit-flags.js';
import { editMemory } from '../../core/memory/lifecycle.js';
import { DURABILITIES, MAX_CONTENT_BYTES, type Durability } from '../../core/memory/memory.js';
import type { ReadLimit } from '../../core/read-text.js';
import { EXPIRES_HELP, iso, parseExpires } from '../../core/time.js';

/** New text on stdin (`--content -`): no further than the content limit, plus the one trailing newline dropped. */
const STDIN_LIMIT: ReadLimit = { maxBytes: MAX_CONTENT_BYTES, slack: 2, what: 'memory text', code: 'content_too_large', fix: 'split it into several memories' };

export default class MemoryEdit extends HippoCommand {
  static override summary = 'Change a memory in place: its text, tags, subject, durability or expiry (the id stays).';
  static override description = `The search index follows at once and updatedAt is set. Without --keep-history the old text is not kept anywhere hippo controls: it leaves the search index, the database file and its write-ahead log, and the prompts stored with candidates and handoffs (snapshots keep theirs; hippo memory forget --purge-snapshots rewrites them).
With --keep-history the old version is kept as an archived memory whose versionOf is this memory's id (hippo memory show lists them; forgetting the memory forgets them too).
Without any flag the text opens in $VISUAL (or $EDITOR, or vi) on a terminal; off a terminal that is refused (exit 2). Tags: --add-tag and --remove-tag change some, --set-tags replaces them all (--tag is refused here: on memory add it adds one).
A persistent or permanent memory never expires: making one so drops its expiry; an ephemeral one without an expiry gets one a day from now.`;
  static override examples = [
    '<%= config.bin %> memory edit mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --content "Billing cron runs at 02:30 UTC"',
    '<%= config.bin %> memory edit mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --add-tag billing --remove-tag draft --keep-history',
    '<%= config.bin %> memory edit mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --durability persistent --subject ""',
    'echo "new text" | <%= config.bin %> memory edit mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --content -',
    '<%= config.bin %> memory edit mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --set-tags billing --set-tags decision',
    '<%= config.bin %> memory edit mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M   # opens the text in $VISUAL / $EDITOR',
  ];
  static override args = { id: Args.string({ ignoreStdin: true, required: true, description: 'memory id' }) };
  static override flags = {
    content: Flags.string({ description: 'the new text ("-" reads it from stdin)' }),
    'set-tags': Flags.string({ multiple: true, description: 'replace all the tags with these (repeatable; --set-tags "" clears them)' }),
    tag: Flags.string({ multiple: true, hidden: true, description: 'refused: say --add-tag or --set-tags' }),
    'add-tag': Flags.string({ multiple: true, description: 'add a tag (repeatable)' }),
    'remove-tag': Flags.string({ multiple: true, description: 'remove a tag (repeatable)' }),
    subject: Flags.string({ description: 'the new subject ("" clears it)' }),
    durability: Flags.string({ options: [...DURABILITIES], description: 'the new durability' }),
    expires: Flags.string({ description: `the new expiry (${EXPIRES_HELP}), or "never"` }),
    'keep-history': Flags.boolean({ default: false, description: 'keep the old version as an archived memory linked to this one' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemoryEdit);
    if (flags.tag) throw tagFlagRefusal(flags.tag);
    const fromStdin =
      flags.content === '-'
        ? (await pipedStdin('empty_content', 'pipe the new text on stdin, or give it with --content TEXT', STDIN_LIMIT)).replace(/\r?\n$/, '')
        : flags.content;
    const store = await this.existingStore(flags.db);
    const agentId = this.agentId(flags.agent);
    const asked = [flags.content, flags['set-tags'], flags['add-tag'], flags['remove-tag'], flags.subject, flags.durability, flags.expires];
    // No change named: the text opens in the user's editor, as `git commit` and `gh` do.
    const content = asked.every((value) => value === undefined) ? await contentFromEditor(store, agentId, args.id) : fromStdin;
    const expires = flags.expires?.trim().toLowerCase() === 'never' ? null : flags.expires;
    const result = await editMemory(store, {
      agentId,
      id: args.id,
      content,
      tags: setTags(flags['set-tags']),
      addTags: flags['add-tag'],
      removeTags: flags['remove-tag'],
      subject: flags.subject,
      durability: flags.durability as Durability | undefined,
      expiresAt: expires === undefined || expires === null ? expires : iso(parseExpires(expires, '--expires', store.clock())),
      keepHistory: flags['keep-history'],
    });
    this.output(result, editView);
  }
}
