/** Grounded fact extraction (docs/design.md §5): pure recognisers, fact grouping and model-pointer verification. No I/O. */
export { KINDS, VALIDATED_KINDS, isKind, listKinds, parseKind, validated } from './kinds.js';
export type { Kind, KindInfo, UnvalidatedKind, ValidatedKind } from './kinds.js';
export { kindsInQuery, lexiconPhrases, suggestKind } from './lexicon.js';
export { DEFAULT_REGIONS, asRegion, candidateRegions, defaultRegion, parseRegion, parseRegions, regionFromLocale } from './region.js';
export { cardContextBefore, contextWords, phoneContextBefore, phoneLabelRegions } from './context.js';
export { labelAt } from './label.js';
export { capPerKind, createLineIndex, extractFacts, groupFacts, lineCol } from './facts.js';
export type { ExtractOptions, LineCol, LocatedMatch } from './facts.js';
export {
  RECOGNISERS,
  recognise,
  recogniseAddresses,
  recogniseCards,
  recogniseDates,
  recogniseEmails,
  recogniseIbans,
  recogniseIps,
  recognisePhones,
  recogniseUrls,
} from './recognisers/index.js';
export {
  MAX_POINTERS,
  MIN_POINTER_LENGTH,
  buildFallbackPrompt,
  fallbackAnswerJsonSchema,
  fallbackAnswerSchema,
  fallbackPointerSchema,
  passesStructuralBound,
  verifyPointers,
} from './verify.js';
export type { FallbackAnswer, FallbackPointer, VerifyOptions } from './verify.js';
export type { Check, Fact, Occurrence, Passage, RawMatch, Recogniser, RecogniserOptions } from './types.js';
