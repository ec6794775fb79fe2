import { turnEndWords } from '../logs/serialize.js';
import { visible } from '../output/visible.js';
import { applyStep, type Step } from '../streams.js';
import { createBlockRenderer, formatArgs, MISSING_END, skippedAt, tokenSummary, transcriptTitle, turnsLine } from './format.js';
import { permissionWords } from './permissions.js';
import type { Piece, RunStart, RunSummary, Skipped, ToolCall, TurnHead } from './transcript.js';

/**
 * A transcript as plain text, for a terminal or an e-mail: headings underlined, what the user said quoted (`> `),
 * the model's text indented, tool calls with their arguments and results indented below them, nothing folded.
 */

/** Each line of the text behind the prefix (a blank line keeps the prefix without its trailing spaces). */
function indent(text: string, prefix: string): string {
  return visible(text)
    .split('\n')
    .map((line) => (line === '' ? prefix.trimEnd() : `${prefix}${line}`))
    .join('\n');
}

const underlined = (title: string, rule: string) => `${title}\n${rule.repeat(Math.min(title.length, 72))}`;

function meta(start: RunStart | undefined): string[] {
  const rows: [string, string | undefined][] = [
    ['Provider', start?.provider],
    ['Model', start?.model && (start.apiModel ? `${start.model} (${start.apiModel})` : start.model)],
    ['Working directory', start?.cwd],
    ['Session', start?.sessionId],
  ];
  const lines = rows.filter((row): row is [string, string] => row[1] !== undefined).map(([name, value]) => `${name}: ${visible(value)}`);
  return lines.length ? [lines.join('\n')] : [];
}

function runBlocks(piece: Extract<Piece, { kind: 'run' }>): string[] {
  const title = underlined(`Run ${piece.index}${piece.runId ? `: ${visible(piece.runId)}` : ''}`, '-');
  if (piece.conversation) return [title, ...meta(piece.start)];
  const prompt = piece.prompt !== undefined ? `Prompt:\n${indent(piece.prompt, '> ')}` : '(The log does not record the prompt: only session files do.)';
  return [title, ...meta(piece.start), prompt];
}

/** Turn headings, as the Markdown ones: `Model turn N` and `Answer` inside a conversation's user turn (`nested`). */
const answerHeading = (nested: boolean, turn?: number) => (nested ? `Answer${turn === undefined ? '' : ` (model turn ${turn})`}:` : 'Final answer:');

function turn(head: TurnHead, nested: boolean): string[] {
  const lines = head.continued ? [] : [head.final ? answerHeading(nested, head.index) : `${nested ? 'Model turn' : 'Turn'} ${head.index}:`];
  if (head.reasoning) lines.push(`  Reasoning:\n${indent(head.reasoning.trimEnd(), '  | ')}`);
  if (head.text !== '') lines.push(indent(head.text.trimEnd(), '  '));
  if (head.text === '' && !head.tools && !head.continued) lines.push('  (no text)');
  return lines.length ? [lines.join('\n')] : [];
}

function labelled(label: string, text: string): string {
  return text === '' ? `    ${label}: (empty)` : `    ${label}:\n${indent(text.replace(/\n$/, ''), '      ')}`;
}

function tool(call: ToolCall): string {
  const side = call.sideEffect ? ` (${visible(call.sideEffect)})` : '';
  const lines = [`  Tool call ${visible(call.name)}${side}: ${call.result ? call.result.status : 'no result'}`];
  for (const note of call.permissions ?? []) {
    const { heading, reason } = permissionWords(note);
    lines.push(`    ${visible(heading)}${reason ? `: ${visible(reason.replace(/\n/g, ' '))}` : ''}`);
  }
  lines.push(call.args !== undefined ? labelled('Arguments', formatArgs(call.args)) : '    No arguments object (see the result).');
  if (!call.result) lines.push('    No result was recorded for this call.');
  else lines.push(labelled(call.result.truncated ? 'Result (truncated by the tool)' : 'Result', call.result.output));
  return lines.join('\n');
}

function outcome(summary: RunSummary): string {
  const { outcome, tokens, missingEnd = 'log' } = summary;
  const status = outcome ? `${visible(outcome.status)}, exit code ${outcome.exitCode}` : `unknown (no run_end: ${MISSING_END[missingEnd]})`;
  return `Outcome: ${status}\n  Tokens: ${tokenSummary(tokens) ?? 'not reported'}\n  Turns: ${turnsLine(summary)}`;
}

function skippedLines(skipped: Skipped[], more: number): string[] {
  if (skipped.length === 0) return [];
  const lines = skipped.map((skip) => `  ${visible(skippedAt(skip))}${visible(skip.reason)}`);
  if (more > 0) lines.push(`  … and ${more} more`);
  return [`${underlined('Skipped lines', '-')}\n${lines.join('\n')}`];
}

/** One piece as blocks of text, separated by blank lines; `nested`: inside a conversation's user turn. */
function blocks(piece: Piece, nested: boolean): string[] {
  switch (piece.kind) {
    case 'run':
      return runBlocks(piece);
    case 'start':
      return meta(piece.start);
    case 'user_turn':
      return [`User turn ${piece.turn}:\n${indent(piece.content, '> ')}`];
    case 'turn_end':
      return piece.status === 'success' ? [] : [`[Turn ${piece.turn} ${turnEndWords(visible(piece.status), piece.worked)}.]`];
    case 'turn':
      return turn(piece.turn, nested);
    case 'tool':
      return [tool(piece.call)];
    case 'warning':
      return [`  Warning: ${visible(piece.message)}`];
    case 'error':
      return [`  Error (${visible(piece.code)}${piece.recoverable ? ', recoverable' : ''}): ${visible(piece.message)}`];
    case 'orphan_result':
      return [`  Result for ${visible(piece.id)} (no matching call): ${piece.result.status}\n${labelled('Result', piece.result.output)}`];
    case 'final': {
      const text = piece.sameAs !== undefined ? `  (the text of turn ${piece.sameAs}, above)` : piece.text === '' ? '  (empty)' : indent(piece.text.trimEnd(), '  ');
      return [`${answerHeading(nested)}\n${text}`];
    }
    case 'run_end':
      return [outcome(piece.summary)];
    case 'log_end':
      return [...(piece.runs === 0 ? ['No runs in this log.'] : []), ...skippedLines(piece.skipped, piece.more)];
  }
}

/** Transcript pieces → plain text, written as they come: the title first, each piece's blocks after a blank line. */
export function createPlainTextRenderer(options: { title?: string } = {}): Step<Piece, string> {
  return createBlockRenderer(underlined(visible(options.title ?? transcriptTitle()), '='), blocks);
}

/** A whole transcript as plain text (tests, and callers that have all the pieces). */
export function renderPlainText(pieces: Iterable<Piece>, options: { title?: string } = {}): string {
  return applyStep(createPlainTextRenderer(options), pieces).join('');
}
