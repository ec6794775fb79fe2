import t from 'tap';
import { assistantText, createHtmlRenderer, escapeHtml, renderHtml } from '../../../lib/render/html.js';
import { createTranscript, transcriptOf } from '../../../lib/render/transcript.js';
import type { LogItem } from '../../../lib/logs/framing.js';
import { applyStep } from '../../../lib/streams.js';

const R = 'run_20260101000000_abcdef';
const ev = (type: string, fields: Record<string, unknown> = {}) => ({ schemaVersion: 1, type, runId: R, ...fields });

const log = (output: string, extra: Record<string, unknown>[] = []) => [
  { schemaVersion: 1, type: 'prompt', content: 'Summarise <notes>.txt' },
  ev('run_start', { cwd: '/w', provider: 'scripted', model: 'm1' }),
  ...extra,
  ev('text', { delta: 'Let me look.' }),
  ev('tool_call', { id: 'c1', name: 'read_file', args: { path: 'notes.txt"><img src=x>' }, sideEffect: 'read' }),
  ev('tool_result', { id: 'c1', status: 'ok', output, truncated: false }),
  ev('text', { delta: 'The launch moves to Friday.' }),
  ev('final', { text: 'The launch moves to Friday.' }),
  ev('run_end', { status: 'success', exitCode: 0 }),
];

t.test('assistantText: escaped, code spans as <code>', async (t) => {
  t.equal(assistantText('use `a < b` and <b>`x`</b>'), 'use <code>a &lt; b</code> and &lt;b&gt;<code>x</code>&lt;/b&gt;');
  t.equal(assistantText('`<script>` `'), '<code>&lt;script&gt;</code> `');
});

t.test('escapeHtml', async (t) => {
  t.equal(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
});

t.test('one self-contained page: inline CSS, no scripts, no external assets', async (t) => {
  const html = renderHtml(transcriptOf(log('the launch moves to Friday')));
  t.match(html, /^<!doctype html>\n<html lang="en">/);
  t.match(html, '<meta charset="utf-8">');
  t.match(html, '<style>');
  t.notMatch(html, /<script/i, 'no scripts');
  t.notMatch(html, /<link|<img|<iframe|<object|<embed|<[a-z]+[^>]*\s(src|href)=|url\(|@import|https?:\/\//i, 'no external assets');
  t.match(html, "default-src 'none'", 'a CSP forbids any fetch');
  t.match(html, '<div class="prompt" id="prompt">Summarise &lt;notes&gt;.txt</div>');
  t.match(html, '<code><strong>read_file</strong></code>');
  t.match(html, '&quot;path&quot;: &quot;notes.txt\\&quot;&gt;&lt;img src=x&gt;&quot;');
  t.match(html, '<pre>the launch moves to Friday</pre>');
  t.match(html, '<h3>Final answer</h3>\n<div class="text final" id="final">The launch moves to Friday.</div>');
  t.match(html, 'exit code <strong>0</strong>');
  t.ok(html.endsWith('</html>\n'));
});

t.test('tool output is untrusted: <script> in a result is escaped', async (t) => {
  const html = renderHtml(transcriptOf(log('<script>alert("pwned")</script>\n</pre><b onclick=x>')));
  t.notMatch(html, /<script/i);
  t.notMatch(html, '<b onclick');
  t.match(html, '<pre>&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;\n&lt;/pre&gt;&lt;b onclick=x&gt;</pre>');
});

t.test('every untrusted string is escaped: warnings, errors, names, ids, metadata', async (t) => {
  const evil = '<script>x</script>';
  const html = renderHtml(
    transcriptOf([
      { ...ev('run_start', { cwd: evil, provider: evil, model: evil, sessionId: evil }), runId: evil },
      { ...ev('warning', { message: evil }), runId: evil },
      { ...ev('tool_call', { id: 'c1', name: evil, sideEffect: evil }), runId: evil },
      { ...ev('tool_result', { id: 'c1', status: 'ok', output: evil, truncated: true }), runId: evil },
      { ...ev('tool_result', { id: evil, status: 'error', output: evil, truncated: false }), runId: evil },
      { ...ev('text', { delta: evil }), runId: evil },
      { ...ev('final', { text: evil }), runId: evil },
      { ...ev('error', { code: evil, message: evil, recoverable: true }), runId: evil },
      { ...ev('run_end', { status: evil, exitCode: 1 }), runId: evil },
    ]),
    { title: evil },
  );
  t.notMatch(html, /<script/i);
  t.match(html, 'Result (truncated by the tool)');
});

t.test('long results are folded with <details>, readable without JavaScript', async (t) => {
  const long = Array.from({ length: 41 }, (_, i) => `line ${i}`).join('\n');
  const html = renderHtml(transcriptOf(log(long)));
  t.match(html, '<details><summary>Result (41 lines, ');
  t.match(html, /<\/summary><pre>line 0\n/);
  const short = renderHtml(transcriptOf(log('short')));
  t.notMatch(short, '<details>');
});

t.test('warnings, errors, unfinished runs, empty logs, skipped lines', async (t) => {
  const html = renderHtml(transcriptOf(log('ok', [ev('warning', { message: 'bash is disabled' })])));
  t.match(html, '<div class="notice warning"><strong>Warning:</strong> bash is disabled</div>');
  const failed: LogItem[] = [ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }), ev('text', { delta: 'Half' }), ev('error', { code: 'provider_error', message: 'overloaded', recoverable: false })].map((value, index) => ({ lineNo: index + 1, value }));
  const page = renderHtml(applyStep(createTranscript(), [...failed, { lineNo: 4, raw: '{', problem: 'not JSON' }]));
  t.match(page, '<div class="notice failure"><strong>Error</strong> <code>provider_error</code>: overloaded</div>');
  t.match(page, 'unfinished');
  t.match(page, 'The log does not record the prompt');
  t.match(page, '<li>line 4: not JSON</li>');
  t.match(renderHtml(transcriptOf([])), 'No runs in this log.');
});

t.test('version 2: reasoning in a folded block, a permission request noted on its call, escaped', async (t) => {
  const evil = '<script>x</script>';
  const v2 = (type: string, fields: Record<string, unknown> = {}) => ({ ...ev(type, fields), schemaVersion: 2 });
  const html = renderHtml(
    transcriptOf([
      v2('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
      v2('reasoning', { delta: `think ${evil}` }),
      v2('tool_call', { id: 'c1', name: 'write_file', args: {}, sideEffect: 'write' }),
      v2('permission_request', { id: 'c1', name: 'write_file', action: 'prompt', permission: evil, permissionMode: 'unsafe', sideEffect: 'write', reason: evil, block: { code: evil, reason: evil } }),
      v2('tool_result', { id: 'c1', name: 'write_file', status: 'error', output: 'no', truncated: false }),
      v2('run_end', { status: 'error', exitCode: 1 }),
    ]),
  );
  t.notMatch(html, /<script/i);
  t.match(html, '<h3>Turn 1</h3>\n<details class="reasoning"><summary>Reasoning</summary><div class="text muted">think &lt;script&gt;x&lt;/script&gt;</div></details>');
  t.match(html, '<div class="notice failure"><strong>Permission refused (&lt;script&gt;x&lt;/script&gt;)</strong>: &lt;script&gt;x&lt;/script&gt;</div>');
});

t.test('written as the pieces come: the head first, a run\'s section as its pieces arrive, the tail at the end', async (t) => {
  const renderer = createHtmlRenderer({ title: 'T' });
  const out: string[] = [];
  const emit = (text: string) => void out.push(text);
  renderer.write({ kind: 'run', index: 1, runId: R, prompt: 'Hi' }, emit);
  t.match(out.join(''), /^<!doctype html>[\s\S]*<h1>T<\/h1>\n<section class="run">\n<header><h2>Run 1<\/h2>/);
  t.notMatch(out.join(''), '</html>', 'the tail waits for the end');
  renderer.write({ kind: 'run_end', summary: { outcome: { status: 'success', exitCode: 0 }, tokens: {}, turns: 1, toolCalls: 0 } }, emit);
  t.match(out.join(''), /<th>Status<\/th><td><span class="badge ok">success<\/span> exit code <strong>0<\/strong>[\s\S]*<\/table>\n<\/section>\n$/, 'the status, which only the end knows, in the outcome');
  renderer.write({ kind: 'log_end', runs: 1, skipped: [], more: 0 }, emit);
  renderer.end!(emit);
  t.match(out.join(''), /<p class="sub">1 run<\/p>\n<\/main>\n<\/body>\n<\/html>\n$/, 'how many runs, at the end');
});

t.test('Markdown images and links in the answer stay text: the page loads nothing and links nowhere', async (t) => {
  const text = 'See ![pixel](https://tracker.example/p.png) and [x](javascript:alert(1)).\n> [q]: javascript:alert(2)';
  const html = renderHtml(transcriptOf([ev('run_start', {}), ev('text', { delta: text }), ev('final', { text }), ev('run_end', { status: 'success', exitCode: 0 })]));
  t.notMatch(html, /<img|<a /);
  t.match(html, 'See ![pixel](https://tracker.example/p.png) and [x](javascript:alert(1)).\n&gt; [q]: javascript:alert(2)');
});
