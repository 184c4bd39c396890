import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../../cli/base-command.js';
import { memoryAddView } from '../../views/render-memory.js';
import { pipedStdin } from '../../cli/stdin.js';
import { addMemory, DURABILITIES, MAX_CONTENT_BYTES, type Durability } from '../../core/memory/memory.js';
import type { ReadLimit } from '../../core/read-text.js';
import { EXPIRES_HELP, iso, parseExpires } from '../../core/time.js';

/** Memory text on stdin: read no further than the content limit, plus the one trailing newline (CRLF) dropped below. */
const STDIN_LIMIT: ReadLimit = {
  maxBytes: MAX_CONTENT_BYTES,
  slack: 2,
  what: 'memory text',
  code: 'content_too_large',
  fix: 'split it into several memories, or import a .md/.txt file (one memory a paragraph)',
};

export default class MemoryAdd extends HippoCommand {
  static override summary = 'Add one memory (TEXT, or stdin).';
  static override examples = [
    '<%= config.bin %> memory add "Moved the billing cron to 02:30 UTC to avoid the backup window" --tag billing --tag decision',
    'echo "Dublin office: +353 1 234 5678" | <%= config.bin %> memory add --tag contacts --durability persistent',
    '<%= config.bin %> memory add "Standup moved to 10:00 today" --durability ephemeral',
    '<%= config.bin %> memory add "Ana: yes, the blue one for the kitchen" --thread chat-2026-05-04',
  ];
  static override args = { text: Args.string({ ignoreStdin: true, description: 'memory text; read from stdin when omitted' }) };
  static override flags = {
    durability: Flags.string({ options: [...DURABILITIES], default: 'standard', description: 'how long it should live' }),
    tag: Flags.string({ char: 't', multiple: true, description: 'a tag (repeatable)' }),
    subject: Flags.string({ description: 'what the memory is about' }),
    expires: Flags.string({ description: `expiry (${EXPIRES_HELP})` }),
    source: Flags.string({ description: 'where it came from', default: 'cli' }),
    thread: Flags.string({ description: 'the conversation or document it belongs to: search reads it with its neighbours there' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(MemoryAdd);
    // `echo … | hippo memory add` ends with a newline that is not part of the note.
    const text =
      args.text ?? (await pipedStdin('empty_content', 'give the memory text as an argument, or pipe it on stdin', STDIN_LIMIT)).replace(/\r?\n$/, '');
    const store = await this.store(flags.db);
    const result = await addMemory(store, {
      agentId: this.agentId(flags.agent),
      content: text,
      durability: flags.durability as Durability,
      tags: flags.tag ?? [],
      subject: flags.subject,
      source: flags.source,
      thread: flags.thread,
      expiresAt: flags.expires === undefined ? undefined : iso(parseExpires(flags.expires, '--expires', store.clock())),
    });
    this.output(result, memoryAddView);
  }
}
