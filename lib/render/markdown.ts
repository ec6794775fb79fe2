import { finalTurn, formatArgs, isLong, sizeLabel, tokenSummary, type Entry, type RunSection, type ToolCall, type Transcript } from './transcript.js';
import { escapeHtml } from './html.js';

/**
 * Markdown viewers render raw HTML and follow links: text from the log is
 * untrusted. `&` and `<` become entities (no tag, no entity-obfuscated
 * scheme survives), and a link or image whose destination has a scheme other
 * than http(s) or mailto (`javascript:`, `data:`, `vbscript:`, `file:`) is
 * broken into plain text by escaping its `(` or, for a reference
 * definition, its `[`.
 */
export function safeMarkdown(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(UNSAFE_INLINE_LINK, ']\\(')
    .replace(UNSAFE_LINK_DEFINITION, '$1\\[');
}

/** A scheme (`javascript:`) that is not http, https or mailto, after optional spaces and an opening `&lt;`. */
const UNSAFE_SCHEME = '[ \\t\\n]*(?:&lt;)?[ \\t]*(?!(?:https?|mailto):)[A-Za-z][A-Za-z0-9+.-]{0,31}:';
const UNSAFE_INLINE_LINK = new RegExp(`\\]\\((?=${UNSAFE_SCHEME})`, 'g');
const UNSAFE_LINK_DEFINITION = new RegExp(`^([ ]{0,3})\\[(?=[^\\]\\n]{1,999}\\]:${UNSAFE_SCHEME})`, 'gm');

/** A code fence longer than any run of backticks in the text, so untrusted output cannot close it. */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${fence}`;
}

/** Inline code that cannot be broken out of. */
function inline(text: string): string {
  const clean = text.replace(/\s+/g, ' ');
  const longest = Math.max(0, ...Array.from(clean.matchAll(/`+/g), (match) => match[0].length));
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

function tool(call: ToolCall): string {
  const status = call.result ? call.result.status : 'no result';
  const side = call.sideEffect ? ` (${call.sideEffect})` : '';
  const parts = [`#### Tool call ${inline(call.name)}${side}: ${status}`];
  if (call.permission) {
    const { code, reason } = call.permission;
    parts.push(`> **Permission request**${code ? ` (${safeMarkdown(code)})` : ''}: ${safeMarkdown(reason.replace(/\n/g, ' '))}`);
  }
  if (call.args !== undefined) parts.push(block('Arguments', formatArgs(call.args), 'json'));
  else parts.push('No arguments object (see the result).');
  if (call.result) {
    const label = call.result.truncated ? 'Result (truncated by the tool)' : 'Result';
    parts.push(call.result.output === '' ? `${label}: (empty)` : block(label, call.result.output));
  } else {
    parts.push('_No result was recorded for this call._');
  }
  return parts.join('\n\n');
}

function entry(item: Entry, final: ReturnType<typeof finalTurn>): string[] {
  switch (item.kind) {
    case 'turn': {
      const { turn } = item;
      const out = [`### ${turn === final ? 'Final answer' : `Turn ${turn.index}`}`];
      // the model's thinking, apart from its answer: folded, a quote when opened
      if (turn.reasoning) out.push(`<details><summary>Reasoning</summary>\n\n${quote(turn.reasoning.trimEnd())}\n\n</details>`);
      if (turn.text !== '') out.push(safeMarkdown(turn.text.trimEnd()));
      for (const call of turn.tools) out.push(tool(call));
      if (turn.text === '' && turn.tools.length === 0) out.push('_No text._');
      return out;
    }
    case 'warning':
      return [`> **Warning:** ${safeMarkdown(item.message.replace(/\n/g, ' '))}`];
    case 'error':
      return [`> **Error (${safeMarkdown(item.code)}${item.recoverable ? ', recoverable' : ''}):** ${safeMarkdown(item.message.replace(/\n/g, ' '))}`];
    case 'orphan_result':
      return [`#### Result for ${inline(item.id)} (no matching call): ${item.result.status}`, item.result.output === '' ? '(empty)' : block('Result', item.result.output)];
  }
}

function section(run: RunSection, index: number, count: number): string {
  const out: string[] = [`## ${count > 1 ? `Run ${index + 1}` : 'Run'}${run.runId ? `: ${inline(run.runId)}` : ''}`];
  const meta: string[] = [];
  if (run.start?.provider) meta.push(`- Provider: ${inline(run.start.provider)}`);
  if (run.start?.model) meta.push(`- Model: ${inline(run.start.model)}${run.start.apiModel ? ` (${inline(run.start.apiModel)})` : ''}`);
  if (run.start?.cwd) meta.push(`- Working directory: ${inline(run.start.cwd)}`);
  if (run.start?.sessionId) meta.push(`- Session: ${inline(run.start.sessionId)}`);
  if (meta.length) out.push(meta.join('\n'));
  out.push('### Prompt', run.prompt !== undefined ? quote(run.prompt) : '_The log does not record the prompt (only session files do)._');
  const final = finalTurn(run);
  for (const item of run.entries) out.push(...entry(item, final));
  if (run.final !== undefined && !final) out.push('### Final answer', run.final === '' ? '_Empty._' : safeMarkdown(run.final.trimEnd()));
  out.push('### Outcome');
  const outcome: string[] = [];
  outcome.push(run.outcome ? `- Status: **${safeMarkdown(run.outcome.status)}**, exit code ${run.outcome.exitCode}` : '- Status: unknown (no run_end: the log ends before the run did)');
  const tokens = tokenSummary(run.tokens);
  outcome.push(`- Tokens: ${tokens ?? 'not reported'}`);
  const calls = run.entries.reduce((sum, item) => sum + (item.kind === 'turn' ? item.turn.tools.length : 0), 0);
  const turns = run.entries.filter((item) => item.kind === 'turn').length;
  outcome.push(`- Turns: ${turns}, tool calls: ${calls}`);
  out.push(outcome.join('\n'));
  return out.join('\n\n');
}

/** The transcript as Markdown: headings per run and turn, fenced arguments and results, long ones folded. */
export function renderMarkdown(transcript: Transcript, options: { title?: string } = {}): string {
  const out = [`# ${safeMarkdown(options.title ?? 'Zero transcript')}`];
  if (transcript.runs.length === 0) out.push('_No runs in this log._');
  transcript.runs.forEach((run, index) => out.push(section(run, index, transcript.runs.length)));
  if (transcript.skipped.length > 0) {
    const lines = transcript.skipped.map((skip) => `- ${skip.lineNo !== undefined ? `line ${skip.lineNo}: ` : ''}${safeMarkdown(skip.reason)}`);
    out.push('## Skipped lines', lines.join('\n'));
  }
  return `${out.join('\n\n')}\n`;
}
