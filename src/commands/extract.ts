import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { HippoCommand } from '../cli/base-command.js';
import { lazyModel } from '../cli/model.js';
import { laterProgressBar } from '../cli/progress.js';
import { redactFlag, redactMode } from '../cli/redact-flag.js';
import { extractView, kindsView, regionsHelp } from '../views/render-facts.js';
import { pipedStdin } from '../cli/stdin.js';
import { UsageError } from '../core/errors.js';
import type { ExtractInput } from '../core/extract/sources.js';
import { factMemoryIds } from '../core/governance/audit.js';
import { EXTRACT_FALLBACK_TIMEOUT_MS, EXTRACT_READ_LIMIT, MEMORY_FACT_LIMIT } from '../core/extract/limits.js';
import { KINDS, parseKind, type Kind } from '../core/facts/kinds.js';
import { parseTimeoutMs } from '../core/time.js';
import { intFlag, RANGES } from '../cli/int-flag.js';

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
  static override usage = [
    'extract KIND[,KIND…] [FILE…]',
    'extract --all [FILE…]',
    'extract KIND --query TEXT',
    'extract KIND --memory ID…',
    'extract --kinds',
  ];
  static override examples = [
    '<%= config.bin %> extract email notes.md',
    '<%= config.bin %> extract phone,email notes.md',
    'cat mail.txt | <%= config.bin %> extract phone --region IE',
    '<%= config.bin %> extract --all report.txt --json',
    '<%= config.bin %> extract phone --query "Dublin office" --agent ops-agent',
    '<%= config.bin %> extract address --query "office" --model ollama:llama3.2',
    '<%= config.bin %> extract phone,email --memory mem_01JD3Z8N6Q2W4E5R7T9Y1V3J5M --agent ops-agent',
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
    memory: Flags.string({ multiple: true, description: 'read these memories of the agent, by id, instead of files (repeatable; archived ones too)' }),
    top: intFlag({ ...RANGES.count, default: 10, description: 'with --query: how many search results to read' }),
    region: Flags.string({
      description: 'home region for national phone numbers and numeric dates (ISO code, e.g. IE); beats HIPPO_REGION, config "region" and the locale',
      // Shown as the default in --help: the regions in force for this user (env, config file, locale), read at help time.
      defaultHelp: regionsHelp,
      noCacheDefault: true,
    }),
    limit: intFlag({
      ...RANGES.count,
      char: 'n',
      description: `at most this many facts per kind (default: no cap over files and stdin, ${MEMORY_FACT_LIMIT} with --query)`,
    }),
    ai: Flags.boolean({ default: true, allowNo: true, description: 'let a configured model point at kinds with no validator (--no-ai: never call a model)' }),
    timeout: Flags.string({ description: `deadline for the model call (milliseconds or 30s, 2m; default ${EXTRACT_FALLBACK_TIMEOUT_MS / 1000}s)` }),
    model: Flags.string({ description: 'provider:model for this run (overrides HIPPO_MODEL and the config file)' }),
    redact: redactFlag,
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Extract);
    // The recognisers and their libraries load only when a command runs (docs/decisions.md, "One bundled entry").
    if (flags.kinds) {
      const { kindsReport } = await import('../core/extract/kinds-report.js');
      return this.output(kindsReport({ region: flags.region }), kindsView);
    }
    const { extractFrom } = await import('../core/extract/sources.js');
    const positional = argv as string[];
    const kinds: readonly Kind[] = flags.all ? KINDS : parseKinds(positional[0] ?? '');
    const files = flags.all ? positional : positional.slice(1);
    const sources = [files.length > 0 && 'FILE arguments', flags.query !== undefined && '--query', flags.memory !== undefined && '--memory'].filter(Boolean);
    if (sources.length > 1) throw new UsageError('usage', `give one of FILE arguments, --query or --memory, not ${sources.join(' and ')}`);
    const store = flags.query !== undefined || flags.memory !== undefined ? await this.existingStore(flags.db) : undefined;
    const input: ExtractInput =
      store && flags.query !== undefined
        ? { store, agentId: this.agentId(flags.agent), query: flags.query, top: flags.top }
        : store && flags.memory !== undefined
          ? { store, agentId: this.agentId(flags.agent), memoryIds: flags.memory }
          : { files, stdin: () => pipedStdin('usage', 'no input: give FILE arguments, pipe text on stdin, or use --query or --memory', EXTRACT_READ_LIMIT) };
    // On a terminal, a bar once the recognisers have run for a moment (stderr: stdout keeps the facts or the document).
    const bar = await laterProgressBar('extracting');
    const outcome = await extractFrom(input, {
      kinds,
      region: flags.region,
      limit: flags.limit,
      ai: flags.ai,
      // --all: what the recognisers find (addresses only by postcode), never a model call.
      recognisersOnly: flags.all,
      model: lazyModel(flags.model),
      redact: redactMode(flags.redact),
      timeoutMs: flags.timeout === undefined ? EXTRACT_FALLBACK_TIMEOUT_MS : parseTimeoutMs(flags.timeout, '--timeout'),
      signal: this.abortSignal,
      // Under --json no table places the facts, so their lines are not counted.
      lineCols: !this.jsonMode,
      onProgress: (done, total) => bar.update(done, total),
    }).finally(() => bar.stop());
    this.output(outcome, extractView(kinds));
    // Over memories, the read audit (audit.cliReads on) records those whose facts were shown, as MCP's facts_extract.
    if (store) await this.auditRead(store, this.agentId(flags.agent), 'extract', factMemoryIds(outcome.facts), flags.query);
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
