/**
 * Rejections that teach (docs/governance.md, "Rejections that teach"): what this agent's reviewers decided recently, for the next prompt — the
 * newest rejections with their reasons (so the model stops proposing them) and the newest promotions a reviewer
 * reworded (so it learns the wording). They share the prompt's character budget with the memories: at most a quarter
 * of it, and at most MAX_REJECTED_LESSONS and MAX_EDITED_LESSONS of them; the memories get what they leave. A
 * candidate one of whose sources was forgotten is left out (its words may restate the erased text), and a reopened
 * one is no rejection any more, so it is not read at all.
 */
import type { StoreOps } from '../store/port.js';
import { MAX_CLAIM_CHARS } from './prompt.js';
import { TRUNCATION_MARKER } from './gather.js';

export const MAX_REJECTED_LESSONS = 20;
export const MAX_EDITED_LESSONS = 10;
/** A reviewer's reason is cut here in the prompt: the gist, not a pasted essay. */
export const MAX_LESSON_REASON_CHARS = 300;
/** The share of the prompt's character budget the lessons may take. */
export const LESSON_BUDGET_SHARE = 0.25;

export interface RejectedLesson {
  id: string;
  claim: string;
  reason: string;
}

export interface EditedLesson {
  id: string;
  claim: string;
  editedClaim: string;
  /** The insight memory the promotion became: the kept wording is its text (handed over, for the read audit). */
  insightId: string | null;
}

export interface Lessons {
  rejected: RejectedLesson[];
  edited: EditedLesson[];
  /** Characters of text the lessons put in the prompt (claims, reasons, wordings). */
  chars: number;
}

export const NO_LESSONS: Lessons = { rejected: [], edited: [], chars: 0 };

function cut(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max) + TRUNCATION_MARKER;
}

/** The lessons for `agentId` within `charBudget × LESSON_BUDGET_SHARE` characters, newest decisions first. */
export async function loadLessons(store: StoreOps, agentId: string, charBudget: number): Promise<Lessons> {
  const budget = Number.isFinite(charBudget) && charBudget > 0 ? Math.floor(charBudget * LESSON_BUDGET_SHARE) : 0;
  if (budget === 0) return NO_LESSONS;
  const lessons: Lessons = { rejected: [], edited: [], chars: 0 };
  const fits = (chars: number) => lessons.chars + chars <= budget;
  // Read a few more than the cap: rows with a forgotten source are left out.
  for (const row of await store.candidates.decided(agentId, { kind: 'rejected', limit: MAX_REJECTED_LESSONS * 2 })) {
    if (row.sourcesForgotten) continue;
    const lesson = { id: row.id, claim: cut(row.claim, MAX_CLAIM_CHARS), reason: cut(row.rationale, MAX_LESSON_REASON_CHARS) };
    const chars = lesson.claim.length + lesson.reason.length;
    if (!fits(chars) || lessons.rejected.length === MAX_REJECTED_LESSONS) break;
    lessons.rejected.push(lesson);
    lessons.chars += chars;
  }
  for (const row of await store.candidates.decided(agentId, { kind: 'edited', limit: MAX_EDITED_LESSONS * 2 })) {
    if (row.sourcesForgotten || row.editedClaim === null) continue;
    const lesson = {
      id: row.id,
      claim: cut(row.claim, MAX_CLAIM_CHARS),
      editedClaim: cut(row.editedClaim, MAX_CLAIM_CHARS),
      insightId: row.promotedMemoryId,
    };
    const chars = lesson.claim.length + lesson.editedClaim.length;
    if (!fits(chars) || lessons.edited.length === MAX_EDITED_LESSONS) break;
    lessons.edited.push(lesson);
    lessons.chars += chars;
  }
  return lessons;
}

/**
 * What a dry run or a handoff says about the lessons: the candidate ids, never their text; and the insight memories
 * whose text (a kept wording) the prompt shows — what a prompt handed to a client hands over of memories besides the
 * gathered ones (the read audit records them).
 */
export interface LessonIds {
  rejected: string[];
  edited: string[];
  insights: string[];
  chars: number;
}

export function lessonIds(lessons: Lessons): LessonIds {
  return {
    rejected: lessons.rejected.map((lesson) => lesson.id),
    edited: lessons.edited.map((lesson) => lesson.id),
    insights: lessons.edited.flatMap((lesson) => (lesson.insightId === null ? [] : [lesson.insightId])),
    chars: lessons.chars,
  };
}
