import type { KeyPress } from './keys.js';
import { editLine, lineValue, type LineValue } from './line-editor.js';
import { oneLine } from './text.js';
import type { Decision, DecisionOutcome, ReviewItem, ReviewSummary } from './types.js';

const CTRL_C = '\u0003';
const DEL = '\u007F';

export type Mode =
  | { kind: 'browse' }
  | { kind: 'help' }
  | { kind: 'filter'; line: LineValue; previous: string }
  | { kind: 'edit'; candidateId: string; line: LineValue }
  /** The rationale (promote) or reason (reject) prompt; `editedClaim` is set when it follows an edit. */
  | { kind: 'reason'; action: 'promote' | 'reject'; candidateId: string; editedClaim?: string; line: LineValue };

export interface Notice {
  tone: 'info' | 'success' | 'error';
  text: string;
}

/** A decision confirmed and being written: the screen runs it through `ReviewActions`, then `settle`s its outcome. */
export interface Saving {
  action: 'promote' | 'reject';
  candidateId: string;
  /** The rationale (promote) or reason (reject). */
  text: string;
  editedClaim?: string;
}

export interface ReviewState {
  /** Pending candidates of this session, newest first; decided ones leave. */
  items: ReviewItem[];
  selectedId: string | null;
  filter: string;
  skipped: string[];
  decisions: Decision[];
  mode: Mode;
  /** First line of the detail pane shown. */
  scroll: number;
  notice: Notice | null;
  exit: null | 'quit' | 'interrupt';
  /** The decision being written; no key is read until it is settled. */
  saving: Saving | null;
  /** Keys read after the Enter that confirmed `saving`, to be read once it is settled (a paste, fast typing). */
  unread: string;
}

/** What the last drawn frame measured, for scrolling by pages and stopping at the end. */
export interface ViewMetrics {
  detailLines: number;
  detailPage: number;
}

export function initialState(items: ReviewItem[]): ReviewState {
  return {
    items,
    selectedId: items[0]?.candidate.id ?? null,
    filter: '',
    skipped: [],
    decisions: [],
    mode: { kind: 'browse' },
    scroll: 0,
    notice: null,
    exit: null,
    saving: null,
    unread: '',
  };
}

/** Case-insensitive match of the filter against the claim, its tags and the model. */
export function matches(item: ReviewItem, filter: string): boolean {
  const needle = filter.trim().toLowerCase();
  if (needle === '') return true;
  const { candidate } = item;
  return [candidate.claim, ...candidate.tags, candidate.generatedBy].some((text) => text.toLowerCase().includes(needle));
}

export function visibleItems(state: ReviewState): ReviewItem[] {
  return state.items.filter((item) => matches(item, state.filter));
}

export function selectedItem(state: ReviewState): ReviewItem | undefined {
  return visibleItems(state).find((item) => item.candidate.id === state.selectedId);
}

export function summaryOf(state: ReviewState): ReviewSummary {
  const pending = new Set(state.items.map((item) => item.candidate.id));
  return {
    decisions: state.decisions,
    skipped: state.skipped.filter((id) => pending.has(id)),
    remaining: state.items.length,
    interrupted: state.exit === 'interrupt',
  };
}

/** Keeps the selection on a visible item: the same one if it still shows, else the first. */
function reselect(state: ReviewState): ReviewState {
  const visible = visibleItems(state);
  if (visible.some((item) => item.candidate.id === state.selectedId)) return state;
  return { ...state, selectedId: visible[0]?.candidate.id ?? null, scroll: 0 };
}

function moveSelection(state: ReviewState, to: (index: number, count: number) => number): ReviewState {
  const visible = visibleItems(state);
  if (visible.length === 0) return state;
  const index = Math.max(
    0,
    visible.findIndex((item) => item.candidate.id === state.selectedId),
  );
  const next = Math.max(0, Math.min(visible.length - 1, to(index, visible.length)));
  const selectedId = visible[next]!.candidate.id;
  return selectedId === state.selectedId ? state : { ...state, selectedId, scroll: 0 };
}

/** Drops a candidate from the list, selecting the one that followed it (or the one before, at the end). */
function removeItem(state: ReviewState, candidateId: string): ReviewState {
  const visible = visibleItems(state);
  const index = visible.findIndex((item) => item.candidate.id === candidateId);
  const remainingVisible = visible.filter((item) => item.candidate.id !== candidateId);
  const selectedId =
    state.selectedId === candidateId ? (remainingVisible[Math.min(Math.max(index, 0), remainingVisible.length - 1)]?.candidate.id ?? null) : state.selectedId;
  return {
    ...state,
    items: state.items.filter((item) => item.candidate.id !== candidateId),
    skipped: state.skipped.filter((id) => id !== candidateId),
    selectedId,
    scroll: selectedId === state.selectedId ? state.scroll : 0,
  };
}

function browse(state: ReviewState, notice: Notice | null): ReviewState {
  return { ...state, mode: { kind: 'browse' }, notice };
}

/**
 * The whole keyboard behaviour of the review screen: one key press in, the next state out. Confirming a prompt sets
 * `saving`: the screen writes that decision right away (each decision is its own transaction, so a crash later loses
 * nothing decided) and feeds its outcome to `settle` before it reads another key. Never called while `saving` is set.
 */
export function step(state: ReviewState, press: KeyPress, metrics: ViewMetrics): ReviewState {
  const { input, key } = press;
  if (key.ctrl && input === 'c') return { ...state, exit: 'interrupt' };
  const interrupt = input.indexOf(CTRL_C);
  if (interrupt >= 0) {
    // Ctrl-C read together with other keys still interrupts, in every mode: the keys before it count, none after
    // (a decision they confirm is still written and counted before the screen closes).
    const before = interrupt > 0 ? step(state, { input: input.slice(0, interrupt), key: plainKey() }, metrics) : state;
    return { ...before, unread: '', exit: before.exit ?? 'interrupt' };
  }
  const chars = [...input];
  if (chars.length > 1 && !key.ctrl && !key.meta) {
    // Keys typed faster than the screen reads them arrive as one string. In the list they are commands, so take them
    // one at a time (`p` then `why…⏎` opens the prompt, then fills and confirms it). In a prompt, text is inserted up
    // to an Enter or a Backspace, which act as keys; what follows goes to whatever mode that leaves.
    const listMode = state.mode.kind === 'browse' || state.mode.kind === 'help';
    const cut = listMode ? 1 : chars.findIndex((char) => char === '\r' || char === DEL);
    if (cut >= 0) {
      const head = chars.slice(0, Math.max(cut, 1)).join('');
      const press: KeyPress =
        !listMode && cut === 0 ? { input: '', key: { ...plainKey(), return: head === '\r', backspace: head === DEL } } : { input: head, key: plainKey() };
      const first = step(state, press, metrics);
      const rest = chars.slice(Math.max(cut, 1)).join('');
      if (first.exit || rest === '') return first;
      // A decision confirmed mid-paste is written before the rest is read, exactly as if it had been typed slowly.
      if (first.saving) return { ...first, unread: first.unread + rest };
      return step(first, { input: rest, key: plainKey() }, metrics);
    }
  }
  switch (state.mode.kind) {
    case 'help':
      return browse(state, null);
    case 'filter':
      return stepFilter(state, state.mode, press);
    case 'edit':
      return stepEdit(state, state.mode, press);
    case 'reason':
      return stepReason(state, state.mode, press);
    case 'browse':
      return stepBrowse(state, press, metrics);
  }
}

export function plainKey(): KeyPress['key'] {
  return {
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
    super: false,
    hyper: false,
    capsLock: false,
    numLock: false,
  };
}

function stepBrowse(state: ReviewState, { input, key }: KeyPress, metrics: ViewMetrics): ReviewState {
  const cleared = state.notice ? { ...state, notice: null } : state;
  const maxScroll = Math.max(0, metrics.detailLines - metrics.detailPage);
  const scrollBy = (lines: number) => ({ ...cleared, scroll: Math.max(0, Math.min(maxScroll, state.scroll + lines)) });
  if (key.upArrow || input === 'k') return moveSelection(cleared, (index) => index - 1);
  if (key.downArrow || input === 'j') return moveSelection(cleared, (index) => index + 1);
  if (key.home || input === 'g') return moveSelection(cleared, () => 0);
  if (key.end || input === 'G') return moveSelection(cleared, (_index, count) => count - 1);
  if (key.pageDown || input === 'J' || input === ' ') return scrollBy(Math.max(1, metrics.detailPage - 1));
  if (key.pageUp || input === 'K') return scrollBy(-Math.max(1, metrics.detailPage - 1));
  if (input === 'q') return { ...cleared, exit: 'quit' };
  if (input === '?') return { ...cleared, mode: { kind: 'help' } };
  if (input === '/') return { ...cleared, mode: { kind: 'filter', line: lineValue(state.filter), previous: state.filter } };
  if (key.escape) {
    if (state.filter === '') return cleared;
    return reselect({ ...cleared, filter: '', notice: { tone: 'info', text: 'filter cleared' } });
  }
  if (input === 'p' || input === 'r' || input === 'e' || input === 's') {
    const item = selectedItem(state);
    if (!item) {
      const text = state.items.length === 0 ? 'no pending candidates left — press q to quit' : 'no candidate matches the filter — press Esc to clear it';
      return { ...cleared, notice: { tone: 'info', text } };
    }
    const candidateId = item.candidate.id;
    if (input === 'p') return { ...cleared, mode: { kind: 'reason', action: 'promote', candidateId, line: lineValue('') } };
    if (input === 'r') return { ...cleared, mode: { kind: 'reason', action: 'reject', candidateId, line: lineValue('') } };
    if (input === 'e') return { ...cleared, mode: { kind: 'edit', candidateId, line: lineValue(oneLine(item.candidate.claim)) } };
    const skipped = state.skipped.includes(candidateId) ? state.skipped : [...state.skipped, candidateId];
    const moved = moveSelection({ ...cleared, skipped }, (index) => index + 1);
    return { ...moved, notice: { tone: 'info', text: `skipped ${candidateId} — it stays pending` } };
  }
  if (oneLine(input) !== '' && !key.ctrl && !key.meta)
    return { ...cleared, notice: { tone: 'info', text: `"${oneLine(input).slice(0, 10)}" does nothing here — press ? for help` } };
  return cleared;
}

function stepFilter(state: ReviewState, mode: Extract<Mode, { kind: 'filter' }>, press: KeyPress): ReviewState {
  const edit = editLine(mode.line, press);
  switch (edit.kind) {
    case 'ignored':
      return state;
    case 'cancel':
      return reselect(browse({ ...state, filter: mode.previous }, null));
    case 'submit':
      return reselect(browse({ ...state, filter: edit.value.text.trim() }, null));
    case 'change':
      // The list narrows as you type.
      return reselect({ ...state, filter: edit.value.text, mode: { ...mode, line: edit.value } });
  }
}

function stepEdit(state: ReviewState, mode: Extract<Mode, { kind: 'edit' }>, press: KeyPress): ReviewState {
  const edit = editLine(mode.line, press);
  switch (edit.kind) {
    case 'ignored':
      return state;
    case 'cancel':
      return browse(state, { tone: 'info', text: 'edit cancelled — nothing was saved' });
    case 'change':
      return { ...state, mode: { ...mode, line: edit.value } };
    case 'submit': {
      const text = edit.value.text.trim();
      if (text === '') return { ...state, notice: { tone: 'error', text: 'the claim cannot be empty — type the wording to keep, or press Esc to cancel' } };
      const item = state.items.find((candidate) => candidate.candidate.id === mode.candidateId);
      const unchanged = item !== undefined && oneLine(item.candidate.claim) === oneLine(text);
      return {
        ...state,
        mode: { kind: 'reason', action: 'promote', candidateId: mode.candidateId, editedClaim: unchanged ? undefined : text, line: lineValue('') },
        notice: unchanged ? { tone: 'info', text: 'the claim is unchanged, so the original wording will be promoted' } : null,
      };
    }
  }
}

function stepReason(state: ReviewState, mode: Extract<Mode, { kind: 'reason' }>, press: KeyPress): ReviewState {
  const edit = editLine(mode.line, press);
  switch (edit.kind) {
    case 'ignored':
      return state;
    case 'cancel':
      return browse(state, { tone: 'info', text: `${mode.action === 'promote' ? 'promotion' : 'rejection'} cancelled — nothing was saved` });
    case 'change':
      return { ...state, mode: { ...mode, line: edit.value } };
    case 'submit': {
      const text = edit.value.text.trim();
      if (text === '') {
        const text =
          mode.action === 'promote'
            ? 'a rationale is required: say why this insight should be kept (or press Esc to cancel)'
            : 'a reason is required: say why this candidate is wrong or not worth keeping (or press Esc to cancel)';
        return { ...state, notice: { tone: 'error', text } };
      }
      return {
        ...state,
        mode: { ...mode, line: edit.value },
        saving: { action: mode.action, candidateId: mode.candidateId, text, editedClaim: mode.editedClaim },
        notice: { tone: 'info', text: `saving the ${mode.action === 'promote' ? 'promotion' : 'rejection'} of ${mode.candidateId}…` },
      };
    }
  }
}

/** The state once the decision in `saving` has been written (or refused): what the old screen showed right after Enter. */
export function settle(state: ReviewState, outcome: DecisionOutcome): ReviewState {
  const saving = state.saving;
  const mode = state.mode;
  if (!saving || mode.kind !== 'reason') return { ...state, saving: null };
  const idle = { ...state, saving: null };
  if (outcome.ok) {
    const removed = removeItem(idle, saving.candidateId);
    const text =
      outcome.kind === 'promoted'
        ? `promoted ${outcome.candidateId}${outcome.edited ? ' (edited)' : ''} → ${outcome.memoryId}`
        : `rejected ${outcome.candidateId}`;
    return browse({ ...removed, decisions: [...state.decisions, outcome] }, { tone: 'success', text });
  }
  if (!outcome.stillPending) {
    return browse(removeItem(idle, saving.candidateId), { tone: 'error', text: `${outcome.message} — removed from the list` });
  }
  // Still pending (busy database, a cited memory gone…): the prompt stays open so Enter retries and Esc gives up.
  const { reloaded } = outcome;
  const items = reloaded ? state.items.map((item) => (item.candidate.id === reloaded.candidate.id ? reloaded : item)) : state.items;
  return { ...idle, items, notice: { tone: 'error', text: outcome.message } };
}
