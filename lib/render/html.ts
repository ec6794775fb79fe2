import { finalTurn, formatArgs, isLong, lineCount, sizeLabel, tokenSummary, type Entry, type RunSection, type ToolCall, type ToolResult, type Transcript, type Turn } from './transcript.js';

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
h1{font-size:22px;margin:0 0 4px}
.sub{color:var(--muted);margin:0 0 22px;font-size:13px}
section.run{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:18px 22px;margin:0 0 26px}
section.run>header{display:flex;flex-wrap:wrap;align-items:baseline;gap:10px;border-bottom:1px solid var(--line);padding-bottom:10px;margin-bottom:14px}
section.run>header h2{font-size:17px;margin:0}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:0 0 14px;font-size:13px;color:var(--muted)}
dl.meta dt{font-weight:600}dl.meta dd{margin:0;overflow-wrap:anywhere}
h3{font-size:13px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:18px 0 6px}
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

function tool(call: ToolCall): string {
  const head = [`<span>Tool call</span> <code><strong>${escapeHtml(call.name)}</strong></code>`];
  if (call.sideEffect) head.push(`<span class="badge muted">${escapeHtml(call.sideEffect)}</span>`);
  head.push(call.result ? statusBadge(call.result.status) : '<span class="badge muted">no result</span>');
  if (call.result) head.push(`<span class="muted" style="font-size:12px">${escapeHtml(lineCount(call.result.output) === 0 ? 'empty output' : sizeLabel(call.result.output))}</span>`);
  const body: string[] = [];
  if (call.permission) {
    const { code, reason } = call.permission;
    body.push(`<div class="notice warning"><strong>Permission request</strong>${code ? ` <code>${escapeHtml(code)}</code>` : ''}: ${escapeHtml(reason)}</div>`);
  }
  body.push(call.args !== undefined ? codeBlock('Arguments', formatArgs(call.args)) : '<div class="label">No arguments object (see the result).</div>');
  body.push(call.result ? resultBlock(call.result) : '<div class="label">No result was recorded for this call.</div>');
  return `<div class="tool" data-tool="${escapeHtml(call.name)}"><div class="head">${head.join(' ')}</div><div class="body">${body.join('')}</div></div>`;
}

function turnHtml(turn: Turn, isFinal: boolean): string {
  const out = [`<h3>${isFinal ? 'Final answer' : `Turn ${turn.index}`}</h3>`];
  if (turn.reasoning) out.push(`<details class="reasoning"><summary>Reasoning</summary><div class="text muted">${escapeHtml(turn.reasoning.trimEnd())}</div></details>`);
  if (turn.text !== '') out.push(`<div class="text${isFinal ? ' final' : ''}"${isFinal ? ' id="final"' : ''}>${assistantText(turn.text.trimEnd())}</div>`);
  for (const call of turn.tools) out.push(tool(call));
  if (turn.text === '' && turn.tools.length === 0) out.push('<p class="muted">No text.</p>');
  return out.join('\n');
}

function entryHtml(item: Entry, final: Turn | undefined): string {
  switch (item.kind) {
    case 'turn':
      return turnHtml(item.turn, item.turn === final);
    case 'warning':
      return `<div class="notice warning"><strong>Warning:</strong> ${escapeHtml(item.message)}</div>`;
    case 'error':
      return `<div class="notice failure"><strong>Error</strong> <code>${escapeHtml(item.code)}</code>${item.recoverable ? ' (recoverable)' : ''}: ${escapeHtml(item.message)}</div>`;
    case 'orphan_result':
      return `<div class="tool"><div class="head">Result for <code>${escapeHtml(item.id)}</code> (no matching call) ${statusBadge(item.result.status)}</div><div class="body">${resultBlock(item.result)}</div></div>`;
  }
}

function runHtml(run: RunSection, index: number, count: number): string {
  const title = count > 1 ? `Run ${index + 1}` : 'Run';
  const header = `<header><h2>${title}</h2>${run.runId ? `<code class="muted">${escapeHtml(run.runId)}</code>` : ''}${run.outcome ? statusBadge(run.outcome.status) : '<span class="badge muted">unfinished</span>'}</header>`;
  const meta: [string, string | undefined][] = [
    ['Provider', run.start?.provider],
    ['Model', run.start?.model && (run.start.apiModel ? `${run.start.model} (${run.start.apiModel})` : run.start.model)],
    ['Directory', run.start?.cwd],
    ['Session', run.start?.sessionId],
  ];
  const rows = meta.filter((row): row is [string, string] => row[1] !== undefined).map(([key, value]) => `<dt>${key}</dt><dd><code>${escapeHtml(value)}</code></dd>`);
  const out = [header];
  if (rows.length) out.push(`<dl class="meta">${rows.join('')}</dl>`);
  out.push('<h3>Prompt</h3>');
  out.push(run.prompt !== undefined ? `<div class="prompt" id="prompt">${escapeHtml(run.prompt)}</div>` : '<p class="muted">The log does not record the prompt (only session files do).</p>');
  const final = finalTurn(run);
  for (const item of run.entries) out.push(entryHtml(item, final));
  if (run.final !== undefined && !final) {
    out.push('<h3>Final answer</h3>', run.final === '' ? '<p class="muted">Empty.</p>' : `<div class="text final" id="final">${assistantText(run.final.trimEnd())}</div>`);
  }
  const turns = run.entries.filter((item) => item.kind === 'turn').length;
  const calls = run.entries.reduce((sum, item) => sum + (item.kind === 'turn' ? item.turn.tools.length : 0), 0);
  const outcome = run.outcome ? `${statusBadge(run.outcome.status)} exit code <strong>${run.outcome.exitCode}</strong>` : '<span class="muted">unknown: no run_end (the log ends before the run did)</span>';
  out.push('<h3>Outcome</h3>');
  out.push(
    `<table class="outcome"><tr><th>Status</th><td>${outcome}</td></tr><tr><th>Tokens</th><td>${escapeHtml(tokenSummary(run.tokens) ?? 'not reported')}</td></tr><tr><th>Turns</th><td>${turns}, ${calls} tool ${calls === 1 ? 'call' : 'calls'}</td></tr></table>`,
  );
  return `<section class="run">\n${out.join('\n')}\n</section>`;
}

/** The transcript as one self-contained HTML page: inline CSS, no scripts, no external assets, everything escaped. */
export function renderHtml(transcript: Transcript, options: { title?: string; source?: string } = {}): string {
  const title = options.title ?? 'Zero transcript';
  const runs = transcript.runs.length;
  const sub = `${runs} ${runs === 1 ? 'run' : 'runs'}${options.source ? ` · ${options.source}` : ''}`;
  const body = transcript.runs.map((run, index) => runHtml(run, index, runs));
  if (runs === 0) body.push('<p class="muted">No runs in this log.</p>');
  if (transcript.skipped.length > 0) {
    const items = transcript.skipped.map((skip) => `<li>${skip.lineNo !== undefined ? `line ${skip.lineNo}: ` : ''}${escapeHtml(skip.reason)}</li>`);
    body.push(`<section class="run"><h3>Skipped lines</h3><ul class="skipped">${items.join('')}</ul></section>`);
  }
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
<p class="sub">${escapeHtml(sub)}</p>
${body.join('\n')}
</main>
</body>
</html>
`;
}
