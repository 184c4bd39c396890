import { Box, Text } from 'ink';
import type { ReactNode } from 'react';
import { listRow, listWindow, modelColumnWidth, type DetailLine, type LineTone, type Pane } from './layout.js';
import { cutTo, fitTo, wrap } from './text.js';
import type { ReviewItem, ReviewSettings } from './types.js';

/** Styles per kind of line. Colour is only ever a second cue: markers and words carry the meaning without it. */
const TONE: Record<LineTone, { color?: string; bold?: boolean; dimColor?: boolean }> = {
  heading: { bold: true },
  label: { dimColor: true },
  body: {},
  source: { color: 'cyan', bold: true },
  missing: { color: 'red', bold: true },
  muted: { dimColor: true },
};

function Frame({ pane, children }: { pane: Pane; children: ReactNode }) {
  return (
    <Box width={pane.width} height={pane.height} borderStyle="round" borderColor="gray" paddingX={1} flexDirection="column" overflow="hidden">
      {children}
    </Box>
  );
}

export interface CandidateListProps {
  pane: Pane;
  items: ReviewItem[];
  total: number;
  filter: string;
  selectedId: string | null;
  skipped: readonly string[];
  now: Date;
}

/** The pending candidates, one row each, the selected one marked with › (and highlighted when colour is on). */
export function CandidateList({ pane, items, total, filter, selectedId, skipped, now }: CandidateListProps) {
  const rowsHeight = Math.max(0, pane.innerHeight - 1);
  const selectedIndex = Math.max(
    0,
    items.findIndex((item) => item.candidate.id === selectedId),
  );
  const { start, end } = listWindow(selectedIndex, items.length, rowsHeight);
  // When the rows do not all fit, say which ones show, so nobody misses the rest.
  const shown = end - start < items.length ? ` · showing ${start + 1}–${end}` : '';
  const title = `${filter.trim() ? `Pending — ${items.length} of ${total} match "${filter.trim()}"` : `Pending candidates (${total})`}${shown}`;
  const modelWidth = modelColumnWidth(items, pane.innerWidth);
  let empty: string | undefined;
  if (items.length === 0)
    empty = total === 0 ? 'No pending candidates left. Press q to quit.' : 'Nothing matches the filter. Press / to change it or Esc to clear it.';
  return (
    <Frame pane={pane}>
      <Text bold wrap="truncate-end">
        {fitTo(title, pane.innerWidth)}
      </Text>
      {empty ? (
        <Text dimColor wrap="truncate-end">
          {cutTo(empty, pane.innerWidth)}
        </Text>
      ) : (
        items.slice(start, end).map((item) => {
          const selected = item.candidate.id === selectedId;
          const isSkipped = skipped.includes(item.candidate.id);
          return (
            <Text key={item.candidate.id} wrap="truncate-end" color={selected ? 'cyan' : undefined} bold={selected} dimColor={!selected && isSkipped}>
              {listRow(item, pane.innerWidth, { selected, skipped: isSkipped, now, modelWidth })}
            </Text>
          );
        })
      )}
    </Frame>
  );
}

export interface CandidateDetailProps {
  pane: Pane;
  item: ReviewItem | undefined;
  /** The item's wrapped detail (`detailLines` at the pane's inner width), computed once by the caller. */
  lines: DetailLine[];
  scroll: number;
}

/** Lines the detail pane shows per page of `lines` (the whole wrapped detail of an item). */
export function detailPage(pane: Pane, lines: DetailLine[]): number {
  // When it does not all fit, the last line becomes the position indicator.
  return lines.length > pane.innerHeight ? Math.max(1, pane.innerHeight - 1) : Math.max(1, pane.innerHeight);
}

/** The full claim and the full text of every memory it cites, scrolled to `scroll`. */
export function CandidateDetail({ pane, item, lines, scroll }: CandidateDetailProps) {
  const page = detailPage(pane, lines);
  if (!item) {
    return (
      <Frame pane={pane}>
        <Text dimColor>Nothing selected.</Text>
      </Frame>
    );
  }
  const first = Math.max(0, Math.min(scroll, lines.length - page));
  const shown = lines.slice(first, first + page);
  const more = lines.length > page;
  const position = `${first > 0 ? '↑' : ' '}${first + page < lines.length ? '↓' : ' '} lines ${first + 1}–${Math.min(lines.length, first + page)} of ${lines.length} · PgDn/PgUp (or space, J/K) scroll`;
  return (
    <Frame pane={pane}>
      {shown.map((line, index) => (
        <Text key={index} wrap="truncate-end" {...TONE[line.tone]}>
          {line.text === '' ? ' ' : line.text}
        </Text>
      ))}
      {more ? (
        <Text dimColor wrap="truncate-end">
          {cutTo(position, pane.innerWidth)}
        </Text>
      ) : null}
    </Frame>
  );
}

const HELP_KEYS: [string, string][] = [
  ['↑/↓  j/k', 'move between candidates (g/G: first/last)'],
  ['PgDn/PgUp', 'scroll the claim and its cited memories (also space, J/K)'],
  ['p', 'promote: keep the claim as a memory; asks why'],
  ['e', 'edit the claim, then promote your wording (original kept)'],
  ['r', 'reject; asks for a reason (the claim is not proposed again)'],
  ['s', 'skip: leave it pending for later'],
  ['/', 'filter by text; Esc in the list clears the filter'],
  ['?', 'this help'],
  ['q  Ctrl-C', 'quit; every decision is saved the moment you confirm it'],
];

/** Enough for a first-time reviewer: what a candidate is, what each key does, and what a decision records. */
export function HelpView({ width, height, settings }: { width: number; height: number; settings: ReviewSettings }) {
  const inner = Math.max(10, width - 4);
  const keyWidth = 12;
  const lines: { text: string; bold?: boolean; dim?: boolean }[] = [{ text: 'Reviewing candidates', bold: true }];
  const paragraph = (text: string, style: { dim?: boolean } = {}) => wrap(text, inner).forEach((line) => lines.push({ text: line, ...style }));
  paragraph('A model distilled each claim from your memories. Check it against the memories it cites, then decide: nothing is kept until you promote it.');
  lines.push({ text: '' });
  for (const [keys, what] of HELP_KEYS) {
    wrap(what, inner - keyWidth).forEach((text, index) => lines.push({ text: `${(index === 0 ? keys : '').padEnd(keyWidth)}${text}` }));
  }
  lines.push({ text: '' });
  paragraph('Prompts: Enter confirms, Esc cancels, ←/→ move, Ctrl-U clears.', { dim: true });
  paragraph(`Promotions become ${settings.durability} memories, recorded as reviewer "${settings.reviewer}" for agent "${settings.agentId}".`, { dim: true });
  return (
    <Box width={width} height={height} borderStyle="round" borderColor="gray" paddingX={1} flexDirection="column" overflow="hidden">
      {lines.slice(0, Math.max(0, height - 2)).map((line, index) => (
        <Text key={index} wrap="truncate-end" bold={line.bold} dimColor={line.dim}>
          {line.text === '' ? ' ' : line.text}
        </Text>
      ))}
    </Box>
  );
}
