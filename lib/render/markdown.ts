import { turnEndWords } from '../logs/serialize.js';
import { applyStep, type Step } from '../streams.js';
import { createBlockRenderer, formatArgs, isLong, MISSING_END, sizeLabel, skippedAt, tokenSummary, transcriptTitle, turnsLine } from './format.js';
import { escapeHtml } from './html.js';
import { permissionWords } from './permissions.js';
import type { Piece, RunStart, RunSummary, Skipped, ToolCall, TurnHead } from './transcript.js';

/**
 * Markdown viewers render raw HTML, follow links and load images: text from the log is untrusted. `&` and `<`
 * become entities (no tag, no entity-obfuscated scheme survives); an image becomes a link to what it would have
 * loaded (its `!` an entity: a remote image in a transcript is a tracking pixel); and a link whose destination
 * has a scheme other than http(s) or mailto (`javascript:`, `data:`, `vbscript:`, `file:`, also written
 * `javascript\:`) is broken into plain text by escaping its `(` or, for a reference definition, its `[`, wherever
 * a definition can start: after any indentation and any block quote and list markers (`> - [q]: …`).
 */
export function safeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/!\[/g, '&#33;[')
    .replace(UNSAFE_INLINE_LINK, ']\\(')
    .replace(UNSAFE_LINK_DEFINITION, '$1\\[');
}

/** Between `](` or `]:` and the destination: spaces, and one line break, whose next line may go on a block quote (`> `). */
const BEFORE_DESTINATION = String.raw`[ \t]*(?:\n[ \t>]*)?`;
/** A scheme (`javascript:`) that is not http, https or mailto, after an opening `&lt;`; a backslash may escape its punctuation. */
const UNSAFE_SCHEME = String.raw`(?:&lt;)?[ \t]*(?!(?:https?|mailto)\\?:)[A-Za-z](?:[A-Za-z0-9]|\\?[+.-]){0,31}\\?:`;
const UNSAFE_INLINE_LINK = new RegExp(String.raw`\]\((?=${BEFORE_DESTINATION}${UNSAFE_SCHEME})`, 'g');
/** What can stand before a definition on its line: indentation, block quote markers, list markers (`-`, `*`, `+`, `1.`, `1)`). */
const BLOCK_PREFIX = String.raw`(?:[ \t>]|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]))*`;
/** A link label: no unescaped bracket, at most 999 characters, line breaks allowed. */
const LABEL = String.raw`(?:[^\[\]\\]|\\[\s\S]){1,999}`;
const UNSAFE_LINK_DEFINITION = new RegExp(String.raw`^(${BLOCK_PREFIX})\[(?=${LABEL}\]:${BEFORE_DESTINATION}${UNSAFE_SCHEME})`, 'gm');

/** The longest run of backticks in the text. */
function longestTicks(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/** A code fence longer than any run of backticks in the text, so untrusted output cannot close it. */
export function fenced(text: string, lang = ''): string {
  const longest = longestTicks(text);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${fence}`;
}

/** Inline code that cannot be broken out of. */
function inline(text: string): string {
  const clean = text.replace(/\s+/g, ' ');
  const longest = longestTicks(clean);
  const ticks = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${clean}${pad}${ticks}`;
}

const quote = (text: string) => safeMarkdown(text).split('\n').map((line) => (line ? `> ${line}` : '>')).join('\n');

/** A block that is folded with <details> when long (more than 40 lines or 4 KB). */
function block(label: string, text: string, lang = ''): string {
  if (!isLong(text)) return `${label}:\n\n${fenced(text, lang)}`;
  return `<details><summary>${escapeHtml(`${label} (${sizeLabel(text)})`)}</summary>\n\n${fenced(text, lang)}\n\n</details>`;
}

/** A heading: `level` inside a plain run; one deeper inside a conversation's user turn. */
const heading = (level: number, nested: boolean, text: string) => `${'#'.repeat(level + (nested ? 1 : 0))} ${text}`;

function tool(call: ToolCall, nested: boolean): string {
  const status = call.result ? call.result.status : 'no result';
  const side = call.sideEffect ? ` (${call.sideEffect})` : '';
  const parts = [heading(4, nested, `Tool call ${inline(call.name)}${side}: ${status}`)];
  for (const note of call.permissions ?? []) {
    const { heading: said, reason } = permissionWords(note);
    parts.push(`> **${safeMarkdown(said)}**${reason ? `: ${safeMarkdown(reason.replace(/\n/g, ' '))}` : ''}`);
  }
  // a string is the model's text as Zero Go logged it, not JSON
  if (call.args !== undefined) parts.push(block('Arguments', formatArgs(call.args), typeof call.args === 'string' ? '' : 'json'));
  else parts.push('No arguments object (see the result).');
  if (call.result) {
    const label = call.result.truncated ? 'Result (truncated by the tool)' : 'Result';
    parts.push(call.result.output === '' ? `${label}: (empty)` : block(label, call.result.output));
  } else {
    parts.push('_No result was recorded for this call._');
  }
  return parts.join('\n\n');
}

/** The answer's heading: the run's final answer, or in a conversation the user turn's answer. */
const answerHeading = (nested: boolean, turn?: number) => heading(3, nested, nested ? `Answer${turn === undefined ? '' : ` (model turn ${turn})`}` : 'Final answer');

function turn(head: TurnHead, nested: boolean): string[] {
  const out = head.continued ? [] : [head.final ? answerHeading(nested, head.index) : heading(3, nested, `${nested ? 'Model turn' : 'Turn'} ${head.index}`)];
  // the model's thinking, apart from its answer: folded, a quote when opened
  if (head.reasoning) out.push(`<details><summary>Reasoning</summary>\n\n${quote(head.reasoning.trimEnd())}\n\n</details>`);
  if (head.text !== '') out.push(safeMarkdown(head.text.trimEnd()));
  if (head.text === '' && !head.tools && !head.continued) out.push('_No text._');
  return out;
}

function meta(start: RunStart | undefined): string[] {
  const lines: string[] = [];
  if (start?.provider) lines.push(`- Provider: ${inline(start.provider)}`);
  if (start?.model) lines.push(`- Model: ${inline(start.model)}${start.apiModel ? ` (${inline(start.apiModel)})` : ''}`);
  if (start?.cwd) lines.push(`- Working directory: ${inline(start.cwd)}`);
  if (start?.sessionId) lines.push(`- Session: ${inline(start.sessionId)}`);
  return lines.length ? [lines.join('\n')] : [];
}

function outcome(summary: RunSummary): string[] {
  const { outcome, tokens, missingEnd = 'log' } = summary;
  const status = outcome ? `- Status: **${safeMarkdown(outcome.status)}**, exit code ${outcome.exitCode}` : `- Status: unknown (no run_end: ${MISSING_END[missingEnd]})`;
  return ['### Outcome', [status, `- Tokens: ${tokenSummary(tokens) ?? 'not reported'}`, `- Turns: ${turnsLine(summary)}`].join('\n')];
}

function skippedLines(skipped: Skipped[], more: number): string[] {
  if (skipped.length === 0) return [];
  const lines = skipped.map((skip) => `- ${safeMarkdown(skippedAt(skip))}${safeMarkdown(skip.reason)}`);
  if (more > 0) lines.push(`- … and ${more} more`);
  return ['## Skipped lines', lines.join('\n')];
}

function runHeading(piece: Extract<Piece, { kind: 'run' }>): string[] {
  const title = `## Run ${piece.index}${piece.runId ? `: ${inline(piece.runId)}` : ''}`;
  if (piece.conversation) return [title, ...meta(piece.start)];
  return [title, ...meta(piece.start), '### Prompt', piece.prompt !== undefined ? quote(piece.prompt) : '_The log does not record the prompt (only session files do)._'];
}

/** One piece of a transcript as Markdown blocks; `nested`: inside a conversation's user turn. */
function blocks(piece: Piece, nested: boolean): string[] {
  switch (piece.kind) {
    case 'run':
      return runHeading(piece);
    case 'start':
      return meta(piece.start);
    case 'user_turn':
      return [`### User turn ${piece.turn}`, piece.content === '' ? '_(empty)_' : quote(piece.content)];
    case 'turn_end':
      return piece.status === 'success' ? [] : [`> **Turn ${piece.turn} ${safeMarkdown(turnEndWords(piece.status, piece.worked))}.**`];
    case 'turn':
      return turn(piece.turn, nested);
    case 'tool':
      return [tool(piece.call, nested)];
    case 'warning':
      return [`> **Warning:** ${safeMarkdown(piece.message.replace(/\n/g, ' '))}`];
    case 'error':
      return [`> **Error (${safeMarkdown(piece.code)}${piece.recoverable ? ', recoverable' : ''}):** ${safeMarkdown(piece.message.replace(/\n/g, ' '))}`];
    case 'orphan_result':
      return [heading(4, nested, `Result for ${inline(piece.id)} (no matching call): ${piece.result.status}`), piece.result.output === '' ? '(empty)' : block('Result', piece.result.output)];
    case 'final':
      return [answerHeading(nested), piece.sameAs !== undefined ? `_The text of turn ${piece.sameAs}, above._` : piece.text === '' ? '_Empty._' : safeMarkdown(piece.text.trimEnd())];
    case 'run_end':
      return outcome(piece.summary);
    case 'log_end':
      return [...(piece.runs === 0 ? ['_No runs in this log._'] : []), ...skippedLines(piece.skipped, piece.more)];
  }
}

/**
 * Transcript pieces → Markdown, written as they come: the title first, then headings per run and turn, fenced
 * arguments and results (long ones folded), each run's outcome at its end.
 */
export function createMarkdownRenderer(options: { title?: string } = {}): Step<Piece, string> {
  return createBlockRenderer(`# ${safeMarkdown(options.title ?? transcriptTitle())}`, blocks);
}

/** A whole transcript as Markdown (tests, and callers that have all the pieces). */
export function renderMarkdown(pieces: Iterable<Piece>, options: { title?: string } = {}): string {
  return applyStep(createMarkdownRenderer(options), pieces).join('');
}
