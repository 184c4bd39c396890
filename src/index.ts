/**
 * hippo as a library (docs/design.md §9): the same core functions the commands call, typed, with no CLI in the way.
 *
 *   import { openStore, addMemory, search, gather, buildPrompt, validateAnswer, distill, promote, reject } from 'hippo';
 */
export * from './core/errors.js';
export { openStore, type Store, type StoreDescription, type StoreOps, type StoreOptions, type Engine } from './core/store/store.js';
export {
  addMemory,
  getMemory,
  getMemories,
  listMemories,
  iterateMemories,
  buildMemory,
  contentHash,
  normalizeWhitespace,
  DURABILITIES,
  MAX_CONTENT_BYTES,
  type Memory,
  type NewMemory,
  type Durability,
  type AddMemoryResult,
} from './core/memory/memory.js';
export { archiveMemories, type ArchiveResult } from './core/memory/lifecycle.js';
export { importFiles, collectImportFiles, parseImportFile, type ImportResult, type FileImportResult } from './core/memory/import.js';
export { search, type SearchOptions, type SearchResult } from './core/search.js';
export { searchWithFacts, type SearchReport } from './core/search-facts.js';
export { SEARCH_PARTS, type SearchPart, type SearchWeights } from './core/store/port.js';
export { dateWords, CONTEXT_BEFORE, CONTEXT_AFTER } from './core/store/context.js';
export { safeText, hasControlCharacters, type SafeTextOptions } from './core/text-guard.js';
export { loadDemo, type DemoResult } from './core/demo.js';
export { resolveDbPath, hippoDataDir, configFilePath } from './core/paths.js';
export { parseSince, parseDurationMs, type Clock } from './core/time.js';

// REM distillation (docs/design.md §4).
export { gather, clip, SCOPES, type Scope, type GatherOptions, type GatherResult, type GatheredMemory } from './core/rem/gather.js';
export { buildPrompt, answerJsonSchema, escapeXml, FOCUSES, type Focus, type PromptInput } from './core/rem/prompt.js';
export { validateAnswer, type Validation, type ValidCandidate } from './core/rem/validate.js';
export {
  stageCandidates as stage,
  stampReflected,
  listCandidates,
  getCandidate,
  getCandidatePrompt,
  type Candidate,
  type CandidateStatus,
  type StageInput,
  type StageResult,
  type RejectedMatch,
} from './core/rem/candidates.js';
export { isNearDuplicate } from './core/rem/near-duplicate.js';
export { loadLessons, type Lessons } from './core/rem/lessons.js';
export { distill, distillDryRun, preparePrompt, type DistillOptions, type DistillResult, type PreparedPrompt } from './core/rem/distill.js';
export { createHandoff, ingest, type Handoff, type IngestOptions } from './core/rem/handoff.js';
export { promote, reject, type PromoteOptions, type RejectOptions, type Promotion } from './core/rem/review.js';
export { listRuns, getRun, RUN_STATUSES, type Run, type RunStatus, type RunKind } from './core/runs.js';

// Model providers (docs/design.md §8).
export { resolveModelConfig, describeModelConfig, type ModelConfig } from './core/model/config.js';
export { createModelClient, type ModelClient, type GenerateObjectRequest, type GenerateObjectResult } from './core/model/client.js';
export { checkModel, type ModelCheckResult } from './core/model/check.js';
export { extractJsonObject, stripThinking } from './core/model/json.js';
export { ANSWER_PROBLEMS, AnswerRejectedError, answerProblemOf, isMalformed, type AnswerProblem, type AnswerRejection } from './core/model/answer-problem.js';

// Egress redaction (docs/redaction.md).
export { REDACT_MODES, type RedactMode } from './core/config-values.js';
export {
  resolveRedaction,
  redactionApplies,
  destinationOf,
  redactorFor,
  type RedactionPolicy,
  type RedactionReport,
  type Destination,
} from './core/redaction.js';
export {
  Redactor,
  toOriginal,
  escapeBrackets,
  REDACTABLE_KINDS,
  DEFAULT_REDACT_KINDS,
  type RedactKind,
  type RedactedText,
  type PlaceholderMap,
  type RedactionCounts,
} from './core/facts/redact.js';

// Nightly maintenance, snapshots and restore (docs/design.md §7).
export { runNightly, nightlyDryRun, agentsWithNewMemories, type NightlyOptions, type NightlyResult, type AgentDistillation } from './core/nightly/run-once.js';
export { takeSnapshot, listSnapshots, pruneSnapshots, snapshotDir, type Snapshot, type ListedSnapshot } from './core/nightly/snapshot.js';
export { planRestore, applyRestore, resolveSnapshot, type RestorePlan, type RestoreResult } from './core/nightly/restore.js';
export { pauseNightly, resumeNightly, pauseState, type PauseState } from './core/nightly/pause.js';
export { planMaintenance, applyMaintenance, optimizeFullText } from './core/nightly/maintenance.js';
export { scheduleText } from './core/nightly/schedule.js';

// Grounded fact extraction (docs/design.md §5).
export { extract, extractReport, type ExtractRequest, type FactsRequest, type FactsReport } from './core/extract/extract.js';
export { type FallbackOptions } from './core/extract/fallback.js';
export { memoryPassages, filePassage } from './core/extract/sources.js';
export { resolveRegions, type RegionSettings } from './core/regions.js';
export {
  KINDS,
  listKinds,
  parseKind,
  validated,
  kindsInQuery,
  extractFacts,
  recognise,
  verifyPointers,
  buildFallbackPrompt,
  lineCol,
  type Fact,
  type Kind,
} from './core/facts/index.js';
