import { Args, Flags } from '@oclif/core';
import { HippoCommand } from '../cli/base-command.js';
import { painter, printable, shortDate } from '../cli/output.js';
import { DURABILITIES, type Durability } from '../core/memory.js';
import { search } from '../core/search.js';
import { parseSince } from '../core/time.js';

const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';

export default class Search extends HippoCommand {
  static override summary = 'Full-text search (BM25) over the agent\'s memories; any text is a valid query.';
  static override examples = [
    '<%= config.bin %> search "when did we move the billing cron?"',
    '<%= config.bin %> search deploy --tag incident --since 7d',
    '<%= config.bin %> search \'NEAR(moved "billing cron", 3)\' --raw --json',
  ];
  static override args = { query: Args.string({ ignoreStdin: true, required: true, description: 'words to search for' }) };
  static override flags = {
    limit: Flags.integer({ default: 10, min: 1, description: 'how many results' }),
    tag: Flags.string({ description: 'only memories with this tag' }),
    since: Flags.string({ description: 'only memories newer than this (90m, 7d, or an ISO date)' }),
    durability: Flags.string({ options: [...DURABILITIES], description: 'only memories of this durability' }),
    'include-archived': Flags.boolean({ default: false, description: 'include archived and expired memories' }),
    raw: Flags.boolean({ default: false, description: 'pass the query to SQLite FTS5 as written (its syntax)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Search);
    const store = this.store(flags.db);
    const paint = painter(process.stdout);
    const results = search(store, {
      agentId: this.agentId(flags.agent),
      query: args.query,
      limit: flags.limit,
      tag: flags.tag,
      since: flags.since === undefined ? undefined : parseSince(flags.since, '--since', store.clock()),
      durability: flags.durability as Durability | undefined,
      includeArchived: flags['include-archived'],
      raw: flags.raw,
      // Private-use markers survive `printable`, which strips any escape sequence stored in the text itself.
      highlight: this.jsonMode ? undefined : { open: MARK_OPEN, close: MARK_CLOSE },
    });
    const highlight = (snippet: string): string =>
      printable(snippet.replace(/\s*\n\s*/g, ' '))
        .replaceAll(MARK_OPEN, paint.enabled ? '\u001b[1;33m' : '**')
        .replaceAll(MARK_CLOSE, paint.enabled ? '\u001b[22;39m' : '**');
    this.output({ results, facts: [] }, () => {
      if (results.length === 0) return 'no matches';
      return results
        .map(({ memory, score, snippet }) => `${paint('bold', memory.id)}  ${paint('dim', `${shortDate(memory.createdAt)}  score ${score.toFixed(2)}`)}\n  ${highlight(snippet)}`)
        .join('\n');
    });
  }
}
