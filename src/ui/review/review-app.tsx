import { Box, Text, useApp, useCursor, useInput, useStdout } from 'ink';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { browseHints, detailLines, promptView, screenLayout, type PromptView } from './layout.js';
import { CandidateDetail, CandidateList, detailPage, HelpView } from './panes.js';
import type { KeyPress } from './keys.js';
import {
  initialState,
  plainKey,
  selectedItem,
  settle,
  step,
  summaryOf,
  visibleItems,
  type Mode,
  type ReviewState,
  type Saving,
  type ViewMetrics,
} from './state.js';
import { cutTo, displayWidth, fitTo, oneLine, wrap } from './text.js';
import type { DecisionOutcome, ReviewActions, ReviewItem, ReviewSettings, ReviewSummary } from './types.js';

export interface ReviewAppProps {
  items: ReviewItem[];
  actions: ReviewActions;
  settings: ReviewSettings;
  now: () => Date;
  /** Called once, with what the session did, when the reviewer quits (q or Ctrl-C). */
  onExit: (summary: ReviewSummary) => void;
  /** Called after every key with what the session has done so far (so a crash can still report it). */
  onUpdate?: (summary: ReviewSummary) => void;
}

/** The terminal size, following resizes. */
function useTerminalSize(): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const [size, setSize] = useState(() => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 }));
  useEffect(() => {
    const onResize = () => setSize({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

function promptLabel(mode: Mode, settings: ReviewSettings): string | undefined {
  switch (mode.kind) {
    case 'filter':
      return 'Filter by text — Enter keeps it, Esc restores the previous filter';
    case 'edit':
      return 'Edit the claim — Enter continues to the rationale, Esc cancels';
    case 'reason':
      if (mode.action === 'reject') return `Reject ${mode.candidateId} — why is it wrong or not worth keeping? Enter saves, Esc cancels`;
      return `Promote ${mode.editedClaim === undefined ? '' : 'your edited wording of '}${mode.candidateId} as a ${settings.durability} memory — why keep it? Enter saves, Esc cancels`;
    default:
      return undefined;
  }
}

const NOTICE_COLOR = { info: 'yellow', success: 'green', error: 'red' } as const;
const NOTICE_MARK = { info: '·', success: '✓', error: '✗' } as const;

/**
 * The interactive review of pending candidates (docs/design.md §4.7). It holds no database code: it shows `items`, and every
 * decision goes through `actions`, which writes it at once.
 */
export function ReviewApp({ items, actions, settings, now, onExit, onUpdate }: ReviewAppProps) {
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const { setCursorPosition } = useCursor();
  const [state, setState] = useState<ReviewState>(() => initialState(items));
  // Key presses read the latest state from a ref: two keys can arrive before React re-renders (a paste then Enter).
  const stateRef = useRef(state);
  const metricsRef = useRef<ViewMetrics>({ detailLines: 0, detailPage: 1 });

  // Keys wait here while a decision is being written, and are read in order once it is settled: what was typed ahead
  // (or pasted) acts exactly as it would have on a store that answers at once.
  const queueRef = useRef<KeyPress[]>([]);
  const savingRef = useRef(false);

  const commit = (next: ReviewState, before: ReviewState) => {
    stateRef.current = next;
    setState(next);
    if (next.decisions !== before.decisions || next.skipped !== before.skipped) onUpdate?.(summaryOf(next));
    if (next.saving) {
      write(next.saving);
      return;
    }
    if (next.exit) {
      queueRef.current = [];
      onExit(summaryOf(next));
      exit();
    }
  };

  const write = (saving: Saving) => {
    savingRef.current = true;
    const decided =
      saving.action === 'promote' ? actions.promote(saving.candidateId, saving.text, saving.editedClaim) : actions.reject(saving.candidateId, saving.text);
    void decided
      .catch((error: unknown): DecisionOutcome => {
        const message = `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
        return { ok: false, candidateId: saving.candidateId, code: 'unexpected', message, stillPending: true };
      })
      .then((outcome) => {
        savingRef.current = false;
        const before = stateRef.current;
        const settled = settle(before, outcome);
        if (settled.unread !== '' && !settled.exit) queueRef.current.unshift({ input: settled.unread, key: plainKey() });
        commit({ ...settled, unread: '' }, before);
        readKeys();
      });
  };

  const readKeys = () => {
    while (!savingRef.current && queueRef.current.length > 0) {
      const current = stateRef.current;
      if (current.exit) {
        queueRef.current = [];
        return;
      }
      commit(step(current, queueRef.current.shift()!, metricsRef.current), current);
    }
  };

  useInput((input, key) => {
    queueRef.current.push({ input, key });
    readKeys();
  });

  const visible = visibleItems(state);
  const selected = selectedItem(state);
  const label = promptLabel(state.mode, settings);
  const line = 'line' in state.mode ? state.mode.line : undefined;
  const prompt: PromptView | undefined = line ? promptView(line, columns) : undefined;
  const labelLines = label ? wrap(label, columns).slice(0, 2) : [];
  // A notice may take up to three lines: a refusal from the core is worth reading in full.
  const noticeLines = state.notice ? wrap(`${NOTICE_MARK[state.notice.tone]} ${oneLine(state.notice.text)}`, columns).slice(0, 3) : [' '];
  const footerHeight = noticeLines.length + (prompt ? labelLines.length + prompt.lines.length : 1);
  const layout = screenLayout(columns, rows, footerHeight, visible.length);
  const current = now();
  // Wrapping all the evidence is the costly part of a frame: done once per candidate, pane width and minute (ages
  // are shown to the minute, so `current` is a dependency through `minute`), not on every key press in a prompt.
  const detailWidth = layout.detail.innerWidth;
  const minute = Math.floor(current.getTime() / 60_000);
  const detail = useMemo(() => (selected ? detailLines(selected, detailWidth, current) : []), [selected, detailWidth, minute]);
  metricsRef.current = { detailLines: detail.length, detailPage: detailPage(layout.detail, detail) };
  // The real terminal cursor sits in the prompt (visible with or without colour); hidden otherwise.
  setCursorPosition(prompt ? { x: prompt.cursor.column, y: 1 + layout.bodyHeight + noticeLines.length + labelLines.length + prompt.cursor.line } : undefined);

  const decided = (kind: 'promoted' | 'rejected') => state.decisions.filter((decision) => decision.kind === kind).length;
  const headRight = `promoted ${decided('promoted')} · rejected ${decided('rejected')} · skipped ${summaryOf(state).skipped.length} · ${state.items.length} pending`;
  const [agent, reviewer] = [oneLine(settings.agentId), oneLine(settings.reviewer)];
  const headLeft = [`hippo review · agent ${agent} · reviewer ${reviewer}`, `agent ${agent}`, ''].find(
    (text) => displayWidth(text) + displayWidth(headRight) + 2 <= columns,
  );
  const header = headLeft ? `${headLeft}${' '.repeat(columns - displayWidth(headLeft) - displayWidth(headRight))}${headRight}` : cutTo(headRight, columns);

  let body: ReactNode;
  if (layout.arrangement === 'too-small') {
    body = (
      <Text wrap="truncate-end">
        {cutTo(`The terminal is too small for the review (${columns}×${rows}); make it at least 40×12, or press q to quit.`, columns)}
      </Text>
    );
  } else if (state.mode.kind === 'help') {
    body = <HelpView width={columns} height={layout.bodyHeight} settings={settings} />;
  } else {
    body = (
      <Box flexDirection={layout.arrangement === 'side-by-side' ? 'row' : 'column'}>
        <CandidateList
          pane={layout.list}
          items={visible}
          total={state.items.length}
          filter={state.filter}
          selectedId={state.selectedId}
          skipped={state.skipped}
          now={current}
        />
        <CandidateDetail pane={layout.detail} item={selected} lines={detail} scroll={state.scroll} />
      </Box>
    );
  }

  return (
    <Box flexDirection="column" width={columns} height={layout.height}>
      <Text bold wrap="truncate-end">
        {header}
      </Text>
      <Box height={layout.bodyHeight} flexDirection="column" overflow="hidden">
        {body}
      </Box>
      {noticeLines.map((text, index) => (
        <Text key={`notice-${index}`} wrap="truncate-end" color={state.notice ? NOTICE_COLOR[state.notice.tone] : undefined}>
          {text}
        </Text>
      ))}
      {prompt ? (
        <>
          {labelLines.map((text, index) => (
            <Text key={`label-${index}`} bold wrap="truncate-end">
              {text}
            </Text>
          ))}
          {prompt.lines.map((text, index) => (
            <Text key={index} wrap="truncate-end">
              {fitTo(text, columns)}
            </Text>
          ))}
        </>
      ) : (
        <Text dimColor wrap="truncate-end">
          {state.mode.kind === 'help' ? 'Press any key to go back to the list.' : browseHints(columns)}
        </Text>
      )}
    </Box>
  );
}
