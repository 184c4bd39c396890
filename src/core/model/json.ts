import type { AnswerRejection } from './answer-problem.js';

/**
 * Pure helpers to get one JSON object out of a model's text. Shared by the model client and `rem ingest` (an answer
 * pasted back from any LLM), so both accept exactly the same answers.
 */

/**
 * Removes reasoning-model thinking: every `<think>…</think>` (or `<thinking>…</thinking>`) block; an unclosed opening
 * tag drops the rest of the text (the answer never came); and a lone closing tag, as emitted by models whose chat
 * template opens the block in the prompt, drops everything before it. Thinking often contains draft JSON, so this
 * must run before looking for the answer object.
 */
export function stripThinking(text: string): string {
  let out = text.replace(/<(think|thinking)>[\s\S]*?<\/\1>/gi, '');
  const lone = /<\/(think|thinking)>/i.exec(out);
  if (lone) out = out.slice(lone.index + lone[0].length);
  const open = /<(think|thinking)>/i.exec(out);
  if (open) out = out.slice(0, open.index);
  return out;
}

/** The object found, or why none was: always the answer problem `invalid_json`, the message saying which case. */
export type ExtractJsonResult =
  { ok: true; value: Record<string, unknown>; start: number; end: number } | ({ ok: false } & AnswerRejection & { reason: 'invalid_json' });

/** Failed attempts (a `{` that does not start a parseable object) before giving up; bounds work on hostile text. */
const MAX_FAILED_ATTEMPTS = 200;

/**
 * Finds exactly one top-level JSON object in `text`, tolerating thinking blocks, prose and code fences around it.
 * `start`/`end` index into the text after `stripThinking`. Zero objects, or two or more (we will not guess which one
 * is the answer) → `invalid_json`, with a message saying which.
 */
export function extractJsonObject(text: string): ExtractJsonResult {
  const body = stripThinking(text);
  let found: { value: Record<string, unknown>; start: number; end: number } | undefined;
  let sawUnparseable = false;
  let failed = 0;
  let from = 0;
  for (;;) {
    const start = body.indexOf('{', from);
    if (start < 0) break;
    const end = matchingBrace(body, start);
    let value: unknown;
    if (end >= 0) {
      try {
        value = JSON.parse(body.slice(start, end + 1));
      } catch {
        sawUnparseable = true;
      }
    }
    if (end >= 0 && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      if (found) return invalidJson('it contained more than one JSON object');
      found = { value: value as Record<string, unknown>, start, end: end + 1 };
      from = end + 1;
      continue;
    }
    if (++failed > MAX_FAILED_ATTEMPTS) break;
    from = start + 1;
  }
  if (found) return { ok: true, ...found };
  return invalidJson(sawUnparseable ? 'its JSON did not parse' : 'it contained no JSON object');
}

function invalidJson(message: string): Extract<ExtractJsonResult, { ok: false }> {
  return { ok: false, reason: 'invalid_json', message };
}

/** Index of the `}` closing the `{` at `start` (string- and escape-aware), or -1. */
function matchingBrace(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}
