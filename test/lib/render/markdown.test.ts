import t from 'tap';
import { HtmlRenderer, Parser } from 'commonmark';
import fc from '../../helpers/property.js';
import { createMarkdownRenderer, fenced, renderMarkdown } from '../../../lib/render/markdown.js';
import { transcriptOf } from '../../../lib/render/transcript.js';

const R = 'run_20260101000000_abcdef';
const ev = (type: string, fields: Record<string, unknown> = {}) => ({ schemaVersion: 1, type, runId: R, ...fields });

const log = (output: string) => [
  { schemaVersion: 1, type: 'prompt', content: 'Summarise notes.txt\nplease' },
  ev('run_start', { cwd: '/w', provider: 'scripted', model: 'm1' }),
  ev('warning', { message: 'bash is disabled' }),
  ev('text', { delta: 'Let me look.' }),
  ev('tool_call', { id: 'c1', name: 'read_file', args: { path: 'notes.txt' }, sideEffect: 'read' }),
  ev('tool_result', { id: 'c1', status: 'ok', output, truncated: false }),
  ev('text', { delta: 'The launch moves to **Friday**.' }),
  ev('usage', { promptTokens: 20, completionTokens: 3, totalTokens: 23 }),
  ev('final', { text: 'The launch moves to **Friday**.' }),
  ev('run_end', { status: 'success', exitCode: 0 }),
];

t.test('headings, the prompt, fenced arguments and results, the final answer, the outcome', async (t) => {
  const md = renderMarkdown(transcriptOf(log('the launch moves to Friday')));
  t.match(md, /^# Zero transcript\n/);
  t.match(md, `## Run 1: \`${R}\``, 'runs are numbered from the first: how many there are is known only at the end');
  t.match(md, '- Provider: `scripted`');
  t.match(md, '### Prompt\n\n> Summarise notes.txt\n> please');
  t.match(md, '> **Warning:** bash is disabled');
  t.match(md, '### Turn 1\n\nLet me look.');
  t.match(md, '#### Tool call `read_file` (read): ok');
  t.match(md, 'Arguments:\n\n```json\n{\n  "path": "notes.txt"\n}\n```');
  t.match(md, 'Result:\n\n```\nthe launch moves to Friday\n```');
  t.match(md, '### Final answer\n\nThe launch moves to **Friday**.');
  t.notMatch(md, '### Turn 2', 'the final turn is shown once, as the final answer');
  t.match(md, '- Status: **success**, exit code 0');
  t.match(md, '- Tokens: 20 prompt · 3 completion · 23 total');
  t.match(md, '- Turns: 2 model turns, 1 tool call');
  t.ok(md.endsWith('\n'));
});

t.test('long results are folded with <details>', async (t) => {
  const long = Array.from({ length: 60 }, (_, i) => `line ${i} <b>`).join('\n');
  const md = renderMarkdown(transcriptOf(log(long)));
  t.match(md, '<details><summary>Result (60 lines, ');
  t.match(md, '</summary>\n\n```\nline 0 <b>\n');
  t.match(md, '```\n\n</details>');
  const big = renderMarkdown(transcriptOf(log('x'.repeat(5000))));
  t.match(big, '<details><summary>Result (1 line, 4.9 KB)</summary>');
});

t.test('untrusted output cannot break out of its fence', async (t) => {
  t.equal(fenced('a ``` b'), '````\na ``` b\n````');
  t.equal(fenced('plain', 'json'), '```json\nplain\n```');
  const md = renderMarkdown(transcriptOf(log('```\n# injected heading\n```')));
  t.match(md, 'Result:\n\n````\n```\n# injected heading\n```\n````');
});

t.test('a failed run without a prompt, an unanswered call, skipped lines', async (t) => {
  const transcript = transcriptOf([
    ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
    ev('tool_call', { id: 'c1', name: 'bash' }),
    ev('error', { code: 'provider_error', message: 'upstream overloaded', recoverable: false }),
    ev('run_end', { status: 'error', exitCode: 3 }),
    'not an event',
  ]);
  const md = renderMarkdown(transcript);
  t.match(md, 'The log does not record the prompt');
  t.match(md, '#### Tool call `bash`: no result');
  t.match(md, 'No arguments object');
  t.match(md, '_No result was recorded for this call._');
  t.match(md, '> **Error (provider_error):** upstream overloaded');
  t.match(md, '- Status: **error**, exit code 3');
  t.match(md, '- Tokens: not reported');
  t.match(md, '## Skipped lines\n\n- line 5: not a JSON object');
});

t.test('several runs are numbered; an unfinished run says so', async (t) => {
  const md = renderMarkdown(transcriptOf([...log('a'), { ...ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }), runId: 'run_20260101000001_zzzzzz' }]));
  t.match(md, `## Run 1: \`${R}\``);
  t.match(md, '## Run 2: `run_20260101000001_zzzzzz`');
  t.match(md, 'Status: unknown (no run_end');
  t.match(renderMarkdown(transcriptOf([])), '_No runs in this log._');
});

t.test('HTML and unsafe links from the log are neutralised; http(s) and mailto links stay', async (t) => {
  const hostile = '<script>alert(1)</script> <img src=x onerror=alert(1)> [l](javascript:alert(1)) ![i]( JaVaScript:x) [d](data:text/html,x) [e](jav&#x61;script:x)';
  const md = renderMarkdown(transcriptOf([
    { schemaVersion: 1, type: 'prompt', content: hostile },
    ev('run_start', { cwd: '/w', provider: 'scripted', model: 'm1' }),
    ev('warning', { message: hostile }),
    ev('text', { delta: `${hostile}\n[ref]: javascript:alert(2)\nsee [docs](https://example.com/a) or [mail](mailto:a@example.com)` }),
    ev('error', { code: '<b>x</b>', message: hostile, recoverable: false }),
    ev('run_end', { status: 'error', exitCode: 1 }),
  ]));
  t.notMatch(md, /<script|<img|<b>/i, 'no raw tag');
  t.match(md, '&lt;script>alert(1)&lt;/script>', 'tags show as text');
  const status = renderMarkdown(transcriptOf([ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }), ev('run_end', { status: '<img src=x onerror=alert(1)>', exitCode: 1 })]));
  t.notMatch(status, /<img/, 'a hand-edited run_end status is escaped too');
  t.notMatch(md, /\]\(\s*(?:javascript|data):/i, 'no inline link to another scheme');
  t.notMatch(md, /^\s{0,3}\[ref\]:/m, 'no reference definition to another scheme');
  t.notMatch(md, /jav&#x61;script/, 'no entity-obfuscated scheme');
  t.match(md, '[docs](https://example.com/a)');
  t.match(md, '[mail](mailto:a@example.com)');
});

t.test('version 2: reasoning folded before the turn\'s text, a permission request noted on its call', async (t) => {
  const v2 = (type: string, fields: Record<string, unknown> = {}) => ({ ...ev(type, fields), schemaVersion: 2 });
  const md = renderMarkdown(
    transcriptOf([
      v2('run_start', { cwd: '/w', provider: 'p', model: 'm' }),
      v2('reasoning', { delta: 'Check <b>first</b>\nthen act.' }),
      v2('text', { delta: 'Writing.' }),
      v2('tool_call', { id: 'c1', name: 'write_file', args: {}, sideEffect: 'write' }),
      v2('permission_request', { id: 'c1', name: 'write_file', action: 'prompt', permission: 'prompt', permissionMode: 'auto', sideEffect: 'write', reason: 'Needs --auto high.' }),
      v2('tool_result', { id: 'c1', name: 'write_file', status: 'error', output: 'Needs --auto high.', truncated: false }),
      v2('run_end', { status: 'error', exitCode: 1 }),
    ]),
  );
  t.match(md, '### Turn 1\n\n<details><summary>Reasoning</summary>\n\n> Check &lt;b>first&lt;/b>\n> then act.\n\n</details>\n\nWriting.');
  t.match(md, '#### Tool call `write_file` (write): error\n\n> **Permission refused**: Needs --auto high.\n\nArguments:');
  t.notMatch(renderMarkdown(transcriptOf(log('x'))), /Reasoning|Permission/, 'nothing of the kind in a version 1 run');
});

t.test('written as the pieces come: the title with the first, each run\'s outcome at its end, the newline at the end', async (t) => {
  const renderer = createMarkdownRenderer({ title: 'T' });
  const out: string[] = [];
  const emit = (text: string) => void out.push(text);
  renderer.write({ kind: 'run', index: 1, runId: R }, emit);
  t.match(out.join(''), /^# T\n\n## Run 1: `run_/);
  t.notMatch(out.join(''), 'Outcome', 'nothing of the end before it comes');
  renderer.write({ kind: 'run_end', summary: { tokens: {}, turns: 0, toolCalls: 0, missingEnd: 'next run' } }, emit);
  t.match(out.join(''), '- Status: unknown (no run_end: the log goes on with another run)');
  renderer.write({ kind: 'log_end', runs: 1, skipped: [{ lineNo: 3, reason: 'not JSON' }], more: 2 }, emit);
  renderer.end!(emit);
  t.match(out.join(''), /## Skipped lines\n\n- line 3: not JSON\n- … and 2 more\n$/);
});

t.test('at the turn limit, the final answer points to the turn whose text it repeats', async (t) => {
  const md = renderMarkdown(transcriptOf([
    ev('text', { delta: 'Checking.' }),
    ev('tool_call', { id: 'c1', name: 'read_file', args: {} }),
    ev('tool_result', { id: 'c1', status: 'ok', output: 'x', truncated: false }),
    ev('final', { text: 'Checking.' }),
    ev('error', { code: 'max_turns', message: 'Reached the turn limit (1) before the model finished. Raise it with --max-turns.', recoverable: true }),
    ev('run_end', { status: 'error', exitCode: 4 }),
  ]));
  t.match(md, '### Turn 1\n\nChecking.');
  t.match(md, '### Final answer\n\n_The text of turn 1, above._');
  t.match(md, '- Turns: 1 model turn, 1 tool call');
});

/** The HTML a Markdown viewer makes of the transcript: commonmark.js, the reference implementation of the spec, which checks no URL itself. */
const viewerHtml = (md: string) => new HtmlRenderer().render(new Parser().parse(md));

/** The URLs of the viewer's links and images whose scheme is not http(s) or mailto, as a browser reads them (tabs and newlines dropped). */
function unsafeUrls(html: string): string[] {
  const urls = [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map(([, url]) => url!.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
  return urls.filter((url) => {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+/, ''));
    return scheme !== null && !['http', 'https', 'mailto'].includes(scheme[1]!.toLowerCase());
  });
}

const answered = (text: string) => renderMarkdown(transcriptOf([ev('run_start', { cwd: '/w', provider: 'p', model: 'm' }), ev('text', { delta: text }), ev('final', { text }), ev('run_end', { status: 'success', exitCode: 0 })]));

t.test('a viewer makes no link to another scheme of a definition in a block quote or a list, however nested or indented', async (t) => {
  const hostile = [
    '> [q]: javascript:alert(1)\n\n[q]',
    '- [q]: javascript:alert(1)\n\n[q]',
    '* [q]: javascript:alert(1)\n\n[q]',
    '+ [q]: javascript:alert(1)\n\n[q]',
    '1. [q]: javascript:alert(1)\n\n[q]',
    '12) [q]: data:text/html,x\n\n[q]',
    '> - > [q]: javascript:alert(1)\n\n[q]',
    '- a\n\n  - b\n\n       [q]: javascript:alert(1)\n\n[q]',
    ' >  [q]: javascript:alert(1)\n\n[q]',
    '>\t[q]: javascript:alert(1)\n\n[q]',
    '-\t[q]: javascript:alert(1)\n\n[q]',
    '> [q]:\n> javascript:alert(1)\n\n[q]',
    '> [q]:\njavascript:alert(1)\n\n[q]',
    '> [q\n> r]: javascript:alert(1)\n\n[q r]',
    '[q]: <javascript:alert(1)>\n\n[q]',
    '[q]: javascript\\:alert(1)\n\n[q]',
    '[x](javascript\\:alert(1))',
    '> [x](\n> javascript:alert(1))',
    '[x](\n  vbscript:msgbox(1))',
  ];
  for (const text of hostile) {
    const html = viewerHtml(answered(text));
    t.same(unsafeUrls(html), [], JSON.stringify(text));
  }
  t.ok(unsafeUrls(viewerHtml(hostile.join('\n\n'))).length > 5, 'unescaped, the viewer makes the links');
});

t.test('images become links: a viewer loads nothing from a transcript', async (t) => {
  const text = 'Look: ![pixel](https://tracker.example/p.png?u=1) and ![ref] and ![alt][ref]\n\n[ref]: https://tracker.example/r.png';
  const html = viewerHtml(answered(text));
  t.notMatch(html, /<img/, 'no image');
  t.match(html, '!<a href="https://tracker.example/p.png?u=1">pixel</a>', 'shown as a link to the image, after its "!"');
  t.match(html, '<a href="https://tracker.example/r.png">ref</a>');
  t.match(viewerHtml(text), /<img/, 'unescaped, the viewer loads the images');
});

t.test('property: whatever the text, a viewer makes no image and no link but http(s) and mailto', async () => {
  const tokens = ['[', ']', '(', ')', ':', '!', '>', '-', '*', '1.', ' ', '  ', '\t', '\n', '\n\n', '\\', '<', '&', '#58;', 'q', 'javascript', 'data', 'https', 'JaVaScRiPt', '&colon;', '`'];
  await fc.assert(
    fc.property(fc.array(fc.constantFrom(...tokens), { maxLength: 40 }), (parts) => {
      const html = viewerHtml(answered(parts.join('')));
      return unsafeUrls(html).length === 0 && !/<img/.test(html);
    }),
    { numRuns: 3000 },
  );
});

t.test('links to http(s) and mailto still work in a viewer', async (t) => {
  const html = viewerHtml(answered('See [docs](https://example.com/a), [mail](mailto:a@example.com) and [r].\n\n> [r]: https://example.com/r'));
  t.match(html, '<a href="https://example.com/a">docs</a>');
  t.match(html, '<a href="mailto:a@example.com">mail</a>');
  t.match(html, '<a href="https://example.com/r">r</a>');
});
