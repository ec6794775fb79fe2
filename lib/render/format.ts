/** What the Markdown and HTML renderers share: when to fold a block, how to label its size, how to show arguments and tokens. */

import type { Step } from '../streams.js';
import type { Piece, RunSummary, Skipped, ToolCall, Tokens } from './transcript.js';

export const RENDER_FORMATS = ['markdown', 'html', 'text'] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];

/** The title of the transcript of a log, named by its file when it has one. */
export const transcriptTitle = (source?: string) => (source ? `Zero transcript: ${source}` : 'Zero transcript');

/** Results longer than this are folded (`<details>`). */
export const FOLD_LINES = 40;
export const FOLD_BYTES = 4096;

export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

export function isLong(text: string): boolean {
  return lineCount(text) > FOLD_LINES || Buffer.byteLength(text, 'utf8') > FOLD_BYTES;
}

/** "12 lines, 5.3 KB" */
export function sizeLabel(text: string): string {
  const lines = lineCount(text);
  const bytes = Buffer.byteLength(text, 'utf8');
  const size = bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
  return `${lines} ${lines === 1 ? 'line' : 'lines'}, ${size}`;
}

/** Tool arguments as readable JSON; a string (Zero Go's log of arguments that were not JSON) as it came. */
export function formatArgs(args: ToolCall['args']): string {
  if (args === undefined) return '';
  return typeof args === 'string' ? args : JSON.stringify(args, null, 2);
}

export function tokenSummary(tokens: Tokens): string | undefined {
  const parts: string[] = [];
  if (tokens.promptTokens !== undefined) parts.push(`${tokens.promptTokens} prompt`);
  if (tokens.completionTokens !== undefined) parts.push(`${tokens.completionTokens} completion`);
  if (tokens.totalTokens !== undefined) parts.push(`${tokens.totalTokens} total`);
  if (tokens.costUsd !== undefined) parts.push(`$${tokens.costUsd.toFixed(4)}`);
  return parts.length ? parts.join(' · ') : undefined;
}

/** Why a run's outcome is unknown: it stopped without its run_end (transcript.ts's RunSummary.missingEnd). */
export const MISSING_END = { log: 'the log ends before the run did', 'next run': 'the log goes on with another run' } as const;

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A run's turns in words: a conversation's user turns (the interrupted ones said), then its model turns and tool calls. */
export function turnsLine({ turns, toolCalls, userTurns, interruptedTurns }: RunSummary): string {
  const user = userTurns === undefined ? '' : `${counted(userTurns, 'user turn', 'user turns')}${interruptedTurns ? ` (${interruptedTurns} interrupted)` : ''}, `;
  return `${user}${counted(turns, 'model turn', 'model turns')}, ${counted(toolCalls, 'tool call', 'tool calls')}`;
}

/** Where a skipped line is: `line 3: `, `b.jsonl: line 3: ` in a log of several files, nothing when it has no line. */
export const skippedAt = (skip: Skipped) => (skip.lineNo === undefined ? '' : `${skip.file === undefined ? '' : `${skip.file}: `}line ${skip.lineNo}: `);

/**
 * Whether each piece, in order, is inside a conversation's user turn (its model turns are headed one level
 * deeper): from a user_turn on, until the next run.
 */
export function createNesting(): (piece: Piece) => boolean {
  let nested = false;
  return (piece) => {
    if (piece.kind === 'run' || piece.kind === 'user_turn') nested = piece.kind === 'user_turn';
    return nested;
  };
}

/**
 * Pieces → blocks of text, written as they come: the title with the first piece, each block after a blank line,
 * a newline at the end (the Markdown and plain-text transcripts).
 */
export function createBlockRenderer(title: string, blocks: (piece: Piece, nested: boolean) => string[]): Step<Piece, string> {
  let titled = false;
  const nesting = createNesting();
  const start = (emit: (text: string) => void) => {
    if (!titled) emit(title);
    titled = true;
  };
  return {
    write(piece, emit) {
      start(emit);
      const nested = nesting(piece);
      for (const text of blocks(piece, nested)) emit(`\n\n${text}`);
    },
    end(emit) {
      start(emit);
      emit('\n');
    },
  };
}
