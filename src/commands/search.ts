import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../cli/base-command.js';
import { memoryFilterFlags, memoryFilters } from '../cli/filter-flags.js';
import { lazyModel } from '../cli/model.js';
import { redactFlag, redactMode } from '../cli/redact-flag.js';
import { searchView, snippetMarks } from '../views/render-search.js';
import { searchWithFacts } from '../core/search-facts.js';
import { intFlag, RANGES } from '../cli/int-flag.js';

export default class Search extends HippoCommand {
  static override summary = "Full-text search (BM25) over the agent's memories; any text is a valid query.";
  static override examples = [
    '<%= config.bin %> search "when did we move the billing cron?"',
    '<%= config.bin %> search deploy --tag incident --since 7d',
    '<%= config.bin %> search "billing cron" --since "last monday" -n 5',
    '<%= config.bin %> search -- -verbose   # a query that starts with "-" goes after --',
    '<%= config.bin %> search \'NEAR(moved "billing cron", 3)\' --raw --json',
  ];
  static override args = {
    query: Args.string({ ignoreStdin: true, required: true, description: 'words to search for (one starting with "-" goes after --)' }),
  };
  static override flags = {
    limit: intFlag({ ...RANGES.count, char: 'n', default: 10, description: 'how many results' }),
    ...memoryFilterFlags,
    'include-archived': Flags.boolean({ default: false, description: 'include archived and expired memories' }),
    raw: Flags.boolean({ default: false, description: 'pass the query to SQLite FTS5 as written (its syntax)' }),
    region: Flags.string({ description: 'fact box: home region for national phone numbers and numeric dates (e.g. IE; see hippo extract --kinds)' }),
    ai: Flags.boolean({ default: true, allowNo: true, description: 'fact box: let a configured model point at addresses (--no-ai: never call a model)' }),
    model: Flags.string({ description: 'fact box: provider:model (overrides HIPPO_MODEL and the config file)' }),
    redact: redactFlag,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Search);
    const store = await this.existingStore(flags.db);
    const marks = this.jsonMode ? undefined : snippetMarks();
    // Facts asked for on purpose: --ai or --model given (the default --ai is not a request).
    const onPurpose = flags.model !== undefined || this.givenFlag('ai');
    const report = await searchWithFacts(store, {
      agentId: this.agentId(flags.agent),
      query: args.query,
      limit: flags.limit,
      ...memoryFilters(flags, store.clock()),
      raw: flags.raw,
      highlight: marks,
      facts: { region: flags.region, ai: flags.ai, model: lazyModel(flags.model), signal: this.abortSignal, redact: redactMode(flags.redact), onPurpose },
    });
    this.output(report, searchView(args.query, marks, { onPurpose }));
    await this.auditRead(
      store,
      this.agentId(flags.agent),
      'search',
      // A hit shown with the neighbour that matched hands over the neighbour's words too (as MCP's memory_search records).
      report.results.flatMap((result) => (result.nearby ? [result.memory.id, result.nearby.memoryId] : [result.memory.id])),
      args.query,
    );
  }
}
