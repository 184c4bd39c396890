/**
 * hippo as a library (SPEC §9): the same core functions the commands call, typed, with no CLI in the way.
 */
export * from './core/errors.js';
export { openStore, inTransaction, type Store, type StoreOptions } from './core/store/store.js';
export { SCHEMA_VERSION } from './core/store/migrations.js';
export {
  addMemory,
  getMemory,
  getMemories,
  listMemories,
  iterateMemories,
  archiveMemories,
  buildMemory,
  contentHash,
  normalizeWhitespace,
  DURABILITIES,
  MAX_CONTENT_BYTES,
  type Memory,
  type NewMemory,
  type Durability,
  type AddMemoryResult,
} from './core/memory.js';
export { importFiles, collectImportFiles, parseImportFile, type ImportResult, type FileImportResult } from './core/import.js';
export { search, buildMatchExpression, type SearchOptions, type SearchResult } from './core/search.js';
export { loadDemo, type DemoResult } from './core/demo.js';
export { resolveDbPath, hippoDataDir, configFilePath } from './core/paths.js';
export { parseSince, parseDurationMs, type Clock } from './core/time.js';
