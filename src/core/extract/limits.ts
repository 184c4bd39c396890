// extract's deadlines and limits, apart from the recognisers so a command can name them in its flags' help without
// loading the recognisers' libraries at startup (docs/decisions.md, "One bundled entry").
import { parsePositiveInt } from '../config-values.js';
import type { ReadLimit } from '../read-text.js';

/** §5.3 deadlines: a search must stay interactive; `extract` may wait (its `--timeout`). */
export const SEARCH_FALLBACK_TIMEOUT_MS = 800;
export const EXTRACT_FALLBACK_TIMEOUT_MS = 30_000;

/**
 * The search fact box's deadline for the model: `HIPPO_FACT_BOX_TIMEOUT_MS` when set (a slow local model, or a loaded
 * machine), else 800 ms. A malformed value is a usage error (exit 2), as every HIPPO_* number is.
 */
export function factBoxTimeoutMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.HIPPO_FACT_BOX_TIMEOUT_MS;
  return raw === undefined || raw === '' ? SEARCH_FALLBACK_TIMEOUT_MS : parsePositiveInt(raw, 'HIPPO_FACT_BOX_TIMEOUT_MS', 600_000);
}
/** At most this many characters of passage text go to the model (whole passages in rank order, the last one cut). */
export const FALLBACK_PASSAGE_BUDGET = 24_000;
/** §5.2: facts per kind when the passages are memories, unless the caller says otherwise. */
export const MEMORY_FACT_LIMIT = 5;
/**
 * The most extract reads from one input (docs/decisions.md, "Bounded reads"): past 64 MiB a file or stdin is refused by
 * name and size. Files are read a window at a time, stdin whole; either way the facts found are held until the last
 * (docs/decisions.md, "Extraction in windows, held as facts"), and they grow with the text.
 */
export const MAX_EXTRACT_BYTES = 64 * 1024 * 1024;
export const EXTRACT_READ_LIMIT: ReadLimit = {
  maxBytes: MAX_EXTRACT_BYTES,
  what: 'text to extract from (one file, or stdin)',
  fix: 'split it at line boundaries (split -C 32m FILE part-) and extract from the parts',
};
