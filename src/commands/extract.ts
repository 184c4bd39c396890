import { Args, Flags } from '@oclif/core';
import { HippoCommand } from '../cli/base-command.js';
import { modelClient, resolveModel } from '../cli/model.js';
import { painter } from '../cli/output.js';
import { factTable, kindTable, regionsInForce } from '../cli/render-facts.js';
import { readStdin } from '../cli/stdin.js';
import { UsageError } from '../core/errors.js';
import { EXTRACT_FALLBACK_TIMEOUT_MS, extract, filePassage, MEMORY_FACT_LIMIT, memoryPassages, resolveRegions, type FallbackOptions } from '../core/extract.js';
import { KINDS, listKinds, parseKind, validated, type Kind } from '../core/facts/kinds.js';
import type { Passage } from '../core/facts/types.js';
import { parseTimeoutMs } from '../core/time.js';

export default class Extract extends HippoCommand {
  static override summary = "Pull facts of one kind (email, phone, iban, …) out of files, stdin, or the agent's memories.";
  static override description =
    'Deterministic recognisers with validators find every kind; every value is sliced from the source, with its label, source:line:col and check. ' +
    'CHECK says how a fact was certified: validated (a validator accepted it), labelled (only plausible, with a label of its kind right before it), ' +
    'postcode (an address ending in a valid postcode, with a street and house number), or 🤖 model. ' +
    'For addresses no postcode certifies, a configured model may point at text in the passages it is shown, and only what is found there verbatim is kept. ' +
    'Phone numbers are read in the home region (--region > HIPPO_REGION > config "region" > the locale; a C/POSIX locale gives none), ' +
    'then in the candidate regions (config "regions", else a default list), and in international form always; --kinds shows the regions in force. ' +
    "With no FILE, reads stdin; --query reads the agent's top search results instead.";
  static override strict = false;
  static override usage = ['extract KIND[,KIND…] [FILE…]', 'extract --all [FILE…]', 'extract KIND --query TEXT', 'extract --kinds'];
  static override examples = [
    '<%= config.bin %> extract email notes.md',
    '<%= config.bin %> extract phone,email notes.md',
    'cat mail.txt | <%= config.bin %> extract phone --region IE',
    '<%= config.bin %> extract --all report.txt --json',
    '<%= config.bin %> extract phone --query "Dublin office" --agent ops-agent',
    '<%= config.bin %> extract address --query "office" --model ollama:llama3.2',
  ];
  static override args = {
    kind: Args.string({
      ignoreStdin: true,
      description: `kind of fact, or several with commas (phone,email): ${KINDS.join(', ')}; omit with --all or --kinds`,
    }),
    file: Args.string({ ignoreStdin: true, description: 'files to read whole (default: stdin; - reads stdin)' }),
  };
  static override flags = {
    all: Flags.boolean({
      default: false,
      description: 'every kind a recogniser finds (addresses only by postcode: no model call); then every argument is a file',
    }),
    kinds: Flags.boolean({ default: false, description: 'list the kinds, how each is checked, and the regions in force' }),
    query: Flags.string({ description: "read the agent's top search results for this text instead of files" }),
    top: Flags.integer({ default: 10, min: 1, description: 'with --query: how many search results to read' }),
    region: Flags.string({
      description: 'home region for national phone numbers and numeric dates (ISO code, e.g. IE); beats HIPPO_REGION, config "region" and the locale',
      // Shown as the default in --help: the regions in force for this user (env, config file, locale), read at help time.
      defaultHelp: async () => regionsHelp(),
      noCacheDefault: true,
    }),
    limit: Flags.integer({ min: 1, description: `at most this many facts per kind (default: no cap over files and stdin, ${MEMORY_FACT_LIMIT} with --query)` }),
    ai: Flags.boolean({ default: true, allowNo: true, description: 'let a configured model point at kinds with no validator (--no-ai: never call a model)' }),
    timeout: Flags.string({ description: `deadline for the model call (milliseconds or 30s, 2m; default ${EXTRACT_FALLBACK_TIMEOUT_MS / 1000}s)` }),
    model: Flags.string({ description: 'provider:model for this run (overrides HIPPO_MODEL and the config file)' }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Extract);
    const paint = painter(process.stdout);
    const regions = resolveRegions({ flag: flags.region, flagName: '--region' });
    if (flags.kinds) {
      const kinds = listKinds();
      this.output({ kinds, regions }, () => kindTable(kinds, regions, paint));
      return;
    }
    const positional = argv as string[];
    const kinds: readonly Kind[] = flags.all ? KINDS : parseKinds(positional[0] ?? '');
    const files = flags.all ? positional : positional.slice(1);
    const timeoutMs = flags.timeout === undefined ? EXTRACT_FALLBACK_TIMEOUT_MS : parseTimeoutMs(flags.timeout, '--timeout');
    const passages = await this.passages(files, flags);
    const fallback = flags.all ? undefined : await this.fallback(kinds, flags, timeoutMs);
    const limit = flags.limit ?? (flags.query === undefined ? undefined : MEMORY_FACT_LIMIT);
    const facts = await extract(passages, { kinds, region: regions.region ?? null, regions: regions.regions, limit, fallback });
    this.output({ facts }, () => (facts.length === 0 ? `no ${kinds.join(', ')} found` : factTable(facts, passages, paint)));
  }

  /** The passages in order: the search results for --query, else each FILE (`-` is stdin), else stdin. */
  private async passages(files: readonly string[], flags: { query?: string; top: number; db?: string; agent?: string }): Promise<Passage[]> {
    if (flags.query !== undefined) {
      if (files.length > 0) throw new UsageError('usage', '--query reads memories: give FILE arguments or --query, not both');
      return memoryPassages(this.store(flags.db), { agentId: this.agentId(flags.agent), query: flags.query, top: flags.top });
    }
    if (files.length === 0) return [await this.stdinPassage()];
    const passages: Passage[] = [];
    for (const file of files) passages.push(file === '-' ? await this.stdinPassage() : filePassage(file));
    return passages;
  }

  private async stdinPassage(): Promise<Passage> {
    if (process.stdin.isTTY) throw new UsageError('usage', 'no input: give FILE arguments, pipe text on stdin, or use --query');
    return { source: 'stdin', text: await readStdin() };
  }

  /** The model fallback, when a kind needs one, --no-ai is absent and a model is configured. */
  private async fallback(kinds: readonly Kind[], flags: { ai: boolean; model?: string }, timeoutMs: number): Promise<FallbackOptions | undefined> {
    const unvalidated = kinds.filter((kind) => !validated(kind));
    if (unvalidated.length === 0 || !flags.ai) return undefined;
    const client = await modelClient(await resolveModel(flags.model));
    if (client === undefined) {
      this.note(`${unvalidated.join(', ')}: no model is configured, so only what a postcode certifies can be found (see hippo model check)`);
      return undefined;
    }
    return { client, timeoutMs, signal: this.abortSignal, log: (line) => this.note(line) };
  }
}

/** The regions in force, for --help; a broken setting is named rather than thrown (help must still print). */
function regionsHelp(): string {
  try {
    return regionsInForce(resolveRegions());
  } catch (error) {
    return `cannot tell: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** `phone` or `phone,email`: every name must be a kind (exit 2 otherwise), and at least one must be given. */
function parseKinds(input: string): Kind[] {
  const kinds = [
    ...new Set(
      input
        .split(',')
        .filter((name) => name.trim() !== '')
        .map(parseKind),
    ),
  ];
  if (kinds.length === 0) missingKind();
  return kinds;
}

function missingKind(): never {
  throw new UsageError('missing_kind', `give a KIND (${KINDS.join(', ')}), --all, or --kinds`, { details: { kinds: [...KINDS] } });
}
