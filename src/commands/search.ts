import { Args, Flags } from '@oclif/core';
import { HippoCommand } from '../cli/base-command.js';
import { painter, printable, shortDate, type Painter } from '../cli/output.js';
import type { Fact, Kind } from '../core/facts/index.js';
import { kindsInQuery } from '../core/facts/lexicon.js';
import { DURABILITIES, type Durability } from '../core/memory.js';
import { search, type SearchResult } from '../core/search.js';
import { parseSince } from '../core/time.js';

// Private-use markers survive `printable`, which turns any escape sequence stored in the text itself into U+FFFD.
const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';

export default class Search extends HippoCommand {
  static override summary = "Full-text search (BM25) over the agent's memories; any text is a valid query.";
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
    region: Flags.string({ description: 'fact box: home region for national phone numbers and numeric dates (e.g. IE; see hippo extract --kinds)' }),
    ai: Flags.boolean({ default: true, allowNo: true, description: 'fact box: let a configured model point at addresses (--no-ai: never call a model)' }),
    model: Flags.string({ description: 'fact box: provider:model (overrides HIPPO_MODEL and the config file)' }),
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
      highlight: this.jsonMode ? undefined : { open: MARK_OPEN, close: MARK_CLOSE },
    });
    // The lexicon is tiny; the recognisers, zod and the model layer load only when the query names a kind.
    const kinds = kindsInQuery(args.query);
    const box = kinds.length === 0 || results.length === 0 ? undefined : await this.factBox(kinds, results, flags);
    this.output({ results, facts: box?.facts ?? [] }, () => [box?.render(paint), renderResults(results, paint)].filter(Boolean).join('\n\n'));
  }

  /** SPEC §6 fact box: the facts of the named kinds in the results, the model fallback limited to 800 ms. */
  private async factBox(kinds: Kind[], results: SearchResult[], flags: { region?: string; ai: boolean; model?: string }): Promise<FactBox> {
    const [{ extract, resolveRegions, MEMORY_FACT_LIMIT, SEARCH_FALLBACK_TIMEOUT_MS }, { validated }, { factTable }, model] = await Promise.all([
      import('../core/extract.js'),
      import('../core/facts/index.js'),
      import('../cli/render-facts.js'),
      import('../cli/model.js'),
    ]);
    const regions = resolveRegions({ flag: flags.region, flagName: '--region' });
    const needsModel = flags.ai && kinds.some((kind) => !validated(kind));
    const client = needsModel ? await model.modelClient(await model.resolveModel(flags.model)) : undefined;
    if (needsModel && !client) {
      const unvalidated = kinds.filter((kind) => !validated(kind));
      this.note(`${unvalidated.join(', ')}: no model is configured, so the box shows only what a postcode certifies (see hippo model check)`);
    }
    const fallback = client && { client, timeoutMs: SEARCH_FALLBACK_TIMEOUT_MS, signal: this.abortSignal, log: (line: string) => this.note(line) };
    const passages = results.map(({ memory }) => ({ source: memory.id, text: memory.content }));
    const facts = await extract(passages, { kinds, region: regions.region ?? null, regions: regions.regions, limit: MEMORY_FACT_LIMIT, fallback });
    return {
      facts,
      render: (paint) => (facts.length === 0 ? paint('dim', `no ${kinds.join(', ')} in these results`) : factTable(facts, passages, paint)),
    };
  }
}

interface FactBox {
  facts: Fact[];
  render(paint: Painter): string;
}

function renderResults(results: SearchResult[], paint: Painter): string {
  if (results.length === 0) return 'no matches';
  return results
    .map(
      ({ memory, score, snippet }) =>
        `${paint('bold', memory.id)}  ${paint('dim', `${shortDate(memory.createdAt)}  score ${score.toFixed(2)}`)}\n  ${highlight(snippet, paint)}`,
    )
    .join('\n');
}

function highlight(snippet: string, paint: Painter): string {
  return printable(snippet.replace(/\s*\n\s*/g, ' '))
    .replaceAll(MARK_OPEN, paint.enabled ? '\u001b[1;33m' : '**')
    .replaceAll(MARK_CLOSE, paint.enabled ? '\u001b[22;39m' : '**');
}
