import { turnEndWords } from '../logs/serialize.js';
import { applyStep, type Step } from '../streams.js';
import { createNesting, formatArgs, isLong, lineCount, MISSING_END, sizeLabel, skippedAt, tokenSummary, transcriptTitle, turnsLine } from './format.js';
import { permissionWords, type PermissionNote } from './permissions.js';
import type { Piece, RunStart, RunSummary, Skipped, ToolCall, ToolResult, TurnHead } from './transcript.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and attribute values: everything in a log is untrusted. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]);
}

const CSS = `
:root{color-scheme:light dark;--bg:#f6f7f9;--fg:#1d2430;--muted:#5b6472;--card:#fff;--line:#dde1e7;--code:#f0f2f5;--accent:#2f6fdf;--ok:#1f8a4c;--err:#c23b3b;--warn:#a86b00;--warnbg:#fff6e0;--errbg:#fdecec}
@media (prefers-color-scheme:dark){:root{--bg:#14171c;--fg:#e4e7ec;--muted:#9aa3b2;--card:#1c2027;--line:#2e343e;--code:#242a33;--accent:#6ea2ff;--ok:#49c27d;--err:#ff7b7b;--warn:#f0b54a;--warnbg:#2e2614;--errbg:#341c1c}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
main{max-width:920px;margin:0 auto;padding:28px 20px 60px}
h1{font-size:22px;margin:0 0 22px}
.sub{color:var(--muted);margin:0;font-size:13px}
section.run{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:18px 22px;margin:0 0 26px}
section.run>header{display:flex;flex-wrap:wrap;align-items:baseline;gap:10px;border-bottom:1px solid var(--line);padding-bottom:10px;margin-bottom:14px}
section.run>header h2{font-size:17px;margin:0}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0 0 14px;font-size:13px;color:var(--muted)}
dl.meta dt{font-weight:600}dl.meta dd{margin:0;overflow-wrap:anywhere}
h3{font-size:13px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:18px 0 6px}
h4{font-size:13px;color:var(--muted);margin:14px 0 4px}
h3.user{color:var(--accent);border-top:1px solid var(--line);padding-top:14px;margin-top:22px}
.prompt{border-left:4px solid var(--accent);background:var(--code);padding:10px 14px;border-radius:0 6px 6px 0;white-space:pre-wrap;overflow-wrap:anywhere}
.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0 10px}
.text code{background:var(--code);border-radius:4px;padding:1px 5px}
.final{border:1px solid var(--ok);border-radius:8px;padding:10px 14px;background:color-mix(in srgb,var(--ok) 7%,transparent)}
.tool{border:1px solid var(--line);border-radius:8px;margin:10px 0;overflow:hidden}
.tool>.head{display:flex;flex-wrap:wrap;gap:8px;align-items:center;padding:7px 12px;background:var(--code);font-size:14px}
.tool>.body{padding:4px 12px 10px}
.label{font-size:12px;color:var(--muted);margin:8px 0 3px}
pre{margin:0;padding:9px 11px;background:var(--code);border-radius:6px;overflow-x:auto;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;white-space:pre-wrap;overflow-wrap:anywhere}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:.92em}
.badge{display:inline-block;border-radius:999px;padding:0 9px;font-size:12px;font-weight:600;border:1px solid currentColor;line-height:1.6}
.ok{color:var(--ok)}.error{color:var(--err)}.muted{color:var(--muted)}
details>summary{cursor:pointer;color:var(--accent);font-size:13px;margin:4px 0}
.notice{border-radius:6px;padding:8px 12px;margin:10px 0;white-space:pre-wrap;overflow-wrap:anywhere}
.notice.warning{background:var(--warnbg);border-left:4px solid var(--warn)}
.notice.failure{background:var(--errbg);border-left:4px solid var(--err)}
table.outcome{border-collapse:collapse;font-size:14px}
table.outcome th{text-align:left;color:var(--muted);font-weight:600;padding:3px 16px 3px 0}
table.outcome td{padding:3px 0}
ul.skipped{font-size:13px;color:var(--muted)}
`;

/** The assistant's text: escaped, with Markdown `code spans` shown as code (the only Markdown rendered). */
export function assistantText(text: string): string {
  return escapeHtml(text).replace(/`([^`\n]+)`/g, '<code>$1</code>');
}

function pre(text: string): string {
  return `<pre>${escapeHtml(text)}</pre>`;
}

/** A block of code, folded in <details> when long (more than 40 lines or 4 KB). */
function codeBlock(label: string, text: string): string {
  if (text === '') return `<div class="label">${escapeHtml(label)}: <span class="muted">(empty)</span></div>`;
  if (!isLong(text)) return `<div class="label">${escapeHtml(label)}</div>${pre(text)}`;
  return `<details><summary>${escapeHtml(`${label} (${sizeLabel(text)}) — show`)}</summary>${pre(text)}</details>`;
}

const statusBadge = (status: string) => `<span class="badge ${status === 'ok' || status === 'success' ? 'ok' : status === 'error' ? 'error' : 'muted'}">${escapeHtml(status)}</span>`;

function resultBlock(result: ToolResult): string {
  const label = result.truncated ? 'Result (truncated by the tool)' : 'Result';
  return codeBlock(label, result.output);
}

/** A permission note: allowed or still asked as a warning; denied, cancelled or refused as a failure. */
function permissionHtml(note: PermissionNote): string {
  const { heading, reason } = permissionWords(note);
  const kind = note.decision === 'allowed' || note.decision === 'asked' ? 'warning' : 'failure';
  return `<div class="notice ${kind}"><strong>${escapeHtml(heading)}</strong>${reason ? `: ${escapeHtml(reason)}` : ''}</div>`;
}

function tool(call: ToolCall): string {
  const head = [`<span>Tool call</span> <code><strong>${escapeHtml(call.name)}</strong></code>`];
  if (call.sideEffect) head.push(`<span class="badge muted">${escapeHtml(call.sideEffect)}</span>`);
  head.push(call.result ? statusBadge(call.result.status) : '<span class="badge muted">no result</span>');
  if (call.result) head.push(`<span class="muted" style="font-size:12px">${escapeHtml(lineCount(call.result.output) === 0 ? 'empty output' : sizeLabel(call.result.output))}</span>`);
  const body = (call.permissions ?? []).map(permissionHtml);
  body.push(call.args !== undefined ? codeBlock('Arguments', formatArgs(call.args)) : '<div class="label">No arguments object (see the result).</div>');
  body.push(call.result ? resultBlock(call.result) : '<div class="label">No result was recorded for this call.</div>');
  return `<div class="tool" data-tool="${escapeHtml(call.name)}"><div class="head">${head.join(' ')}</div><div class="body">${body.join('')}</div></div>`;
}

/** The answer's heading: the run's final answer, or in a conversation (`nested`) the user turn's answer. */
const answerHeading = (nested: boolean, turn?: number) => (nested ? `<h4>Answer${turn === undefined ? '' : ` (model turn ${turn})`}</h4>` : '<h3>Final answer</h3>');
/** An answer's text; the run's final answer is the page's #final (a conversation has one answer per user turn, no id). */
const answerText = (text: string, nested: boolean) => `<div class="text final"${nested ? '' : ' id="final"'}>${assistantText(text.trimEnd())}</div>`;

function turnHtml(head: TurnHead, nested: boolean): string {
  const out = head.continued ? [] : [head.final ? answerHeading(nested, head.index) : nested ? `<h4>Model turn ${head.index}</h4>` : `<h3>Turn ${head.index}</h3>`];
  if (head.reasoning) out.push(`<details class="reasoning"><summary>Reasoning</summary><div class="text muted">${escapeHtml(head.reasoning.trimEnd())}</div></details>`);
  if (head.text !== '') out.push(head.final ? answerText(head.text, nested) : `<div class="text">${assistantText(head.text.trimEnd())}</div>`);
  if (head.text === '' && !head.tools && !head.continued) out.push('<p class="muted">No text.</p>');
  return out.join('\n');
}

function metaHtml(start: RunStart | undefined): string[] {
  const meta: [string, string | undefined][] = [
    ['Provider', start?.provider],
    ['Model', start?.model && (start.apiModel ? `${start.model} (${start.apiModel})` : start.model)],
    ['Directory', start?.cwd],
    ['Session', start?.sessionId],
  ];
  const rows = meta.filter((row): row is [string, string] => row[1] !== undefined).map(([key, value]) => `<dt>${key}</dt><dd><code>${escapeHtml(value)}</code></dd>`);
  return rows.length ? [`<dl class="meta">${rows.join('')}</dl>`] : [];
}

function runHtml(piece: Extract<Piece, { kind: 'run' }>): string[] {
  const header = `<header><h2>Run ${piece.index}</h2>${piece.runId ? `<code class="muted">${escapeHtml(piece.runId)}</code>` : ''}</header>`;
  if (piece.conversation) return ['<section class="run">', header, ...metaHtml(piece.start)];
  const prompt = piece.prompt !== undefined ? `<div class="prompt" id="prompt">${escapeHtml(piece.prompt)}</div>` : '<p class="muted">The log does not record the prompt (only session files do).</p>';
  return ['<section class="run">', header, ...metaHtml(piece.start), '<h3>Prompt</h3>', prompt];
}

function outcomeHtml(summary: RunSummary): string[] {
  const { outcome, tokens, missingEnd = 'log' } = summary;
  const status = outcome
    ? `${statusBadge(outcome.status)} exit code <strong>${outcome.exitCode}</strong>`
    : `<span class="badge muted">unfinished</span> <span class="muted">unknown: no run_end (${MISSING_END[missingEnd]})</span>`;
  const rows = [['Status', status], ['Tokens', escapeHtml(tokenSummary(tokens) ?? 'not reported')], ['Turns', escapeHtml(turnsLine(summary))]];
  return ['<h3>Outcome</h3>', `<table class="outcome">${rows.map(([name, value]) => `<tr><th>${name}</th><td>${value}</td></tr>`).join('')}</table>`, '</section>'];
}

function skippedHtml(skipped: Skipped[], more: number): string[] {
  if (skipped.length === 0) return [];
  const items = skipped.map((skip) => `<li>${escapeHtml(skippedAt(skip))}${escapeHtml(skip.reason)}</li>`);
  if (more > 0) items.push(`<li>… and ${more} more</li>`);
  return [`<section class="run"><h3>Skipped lines</h3><ul class="skipped">${items.join('')}</ul></section>`];
}

/** One piece of a transcript as lines of HTML; `nested`: inside a conversation's user turn. */
function pieceHtml(piece: Piece, nested: boolean): string[] {
  switch (piece.kind) {
    case 'run':
      return runHtml(piece);
    case 'start':
      return metaHtml(piece.start);
    case 'user_turn':
      return [`<h3 class="user">User turn ${piece.turn}</h3>`, `<div class="prompt">${escapeHtml(piece.content)}</div>`];
    case 'turn_end':
      return piece.status === 'success' ? [] : [`<div class="notice warning"><strong>${escapeHtml(`Turn ${piece.turn} ${turnEndWords(piece.status, piece.worked)}.`)}</strong></div>`];
    case 'turn':
      return [turnHtml(piece.turn, nested)];
    case 'tool':
      return [tool(piece.call)];
    case 'warning':
      return [`<div class="notice warning"><strong>Warning:</strong> ${escapeHtml(piece.message)}</div>`];
    case 'error':
      return [`<div class="notice failure"><strong>Error</strong> <code>${escapeHtml(piece.code)}</code>${piece.recoverable ? ' (recoverable)' : ''}: ${escapeHtml(piece.message)}</div>`];
    case 'orphan_result':
      return [`<div class="tool"><div class="head">Result for <code>${escapeHtml(piece.id)}</code> (no matching call) ${statusBadge(piece.result.status)}</div><div class="body">${resultBlock(piece.result)}</div></div>`];
    case 'final': {
      const answer = piece.sameAs !== undefined ? `<p class="muted">The text of turn ${piece.sameAs}, above.</p>` : piece.text === '' ? '<p class="muted">Empty.</p>' : answerText(piece.text, nested);
      return [answerHeading(nested), answer];
    }
    case 'run_end':
      return outcomeHtml(piece.summary);
    case 'log_end': {
      const sub = `${piece.runs} ${piece.runs === 1 ? 'run' : 'runs'}`;
      return [...(piece.runs === 0 ? ['<p class="muted">No runs in this log.</p>'] : []), ...skippedHtml(piece.skipped, piece.more), `<p class="sub">${escapeHtml(sub)}</p>`];
    }
  }
}

function head(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
`;
}

const TAIL = '</main>\n</body>\n</html>\n';

/**
 * Transcript pieces → one self-contained HTML page (inline CSS, no scripts, no external assets, everything
 * escaped), written as they come: the head first, each run's section as its pieces arrive, then the tail.
 */
export function createHtmlRenderer(options: { title?: string } = {}): Step<Piece, string> {
  let started = false;
  const nesting = createNesting();
  const start = (emit: (text: string) => void) => {
    if (!started) emit(head(options.title ?? transcriptTitle()));
    started = true;
  };
  return {
    write(piece, emit) {
      start(emit);
      for (const line of pieceHtml(piece, nesting(piece))) emit(`${line}\n`);
    },
    end(emit) {
      start(emit);
      emit(TAIL);
    },
  };
}

/** A whole transcript as one HTML page (tests, and callers that have all the pieces). */
export function renderHtml(pieces: Iterable<Piece>, options: { title?: string } = {}): string {
  return applyStep(createHtmlRenderer(options), pieces).join('');
}
