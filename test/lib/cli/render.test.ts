import t, { type Test } from 'tap';
import type { Browser } from 'playwright-core';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { protocolExamples, V2_RUN } from '../../helpers/protocol-examples.js';
import { recordedConversation } from '../../helpers/conversation.js';
import { zeroHere } from '../../helpers/cli.js';
import { FOREIGN_RUN_ID, writeForeignLog } from '../../helpers/foreign-log.js';
import { recordSession } from '../../helpers/sessions.js';
import { cleanEnv, jsonLines, writeScript, ZERO } from '../../helpers/zero.js';

// Each check runs zero in this process (what it prints and its exit code are the same); bin/zero itself is run
// where only a process shows the behaviour.
const zero = zeroHere;
import { sessionsRoot } from '../../../lib/sessions/paths.js';
import { spawn } from 'node:child_process';
import { repoPath } from '../../helpers/repo.js';

// End to end: a run recorded by bin/zero with the scripted provider, rendered by bin/zero render.

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const SCRIPT = [
  { chunks: ['Let me ', 'read the notes.'], toolCalls: [{ id: 'call_1', name: 'read_file', args: { path: 'notes.txt' } }], usage: { promptTokens: 120, completionTokens: 14 } },
  { expect: { contains: ['Friday'] }, chunks: ['The launch moves ', 'to Friday.'], usage: { promptTokens: 410, completionTokens: 31 } },
];
const NOTES = 'the launch moves to Friday\n<script>document.title="pwned"; console.error("injected")</script>\n';

/** Records a run: its stream-json stdout and its session file (which carries the prompt). */
async function record(t: Test) {
  const dir = t.testdir({ 'notes.txt': NOTES });
  const home = join(dir, 'home');
  const script = writeScript(dir, SCRIPT);
  const result = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, 'Summarise notes.txt'], { env: cleanEnv({ ZERO_HOME: home }) });
  t.equal(result.code, 0, 'the run succeeds');
  const log = join(dir, 'run.jsonl');
  writeFileSync(log, result.stdout);
  const sessions = join(home, 'sessions');
  const [id] = readdirSync(sessions);
  const session = join(sessions, id, 'events.jsonl');
  t.ok(existsSync(session), 'the session file exists');
  return { dir, log, session, stdout: result.stdout };
}

t.test('markdown (the default) of a recorded run, from a file and from stdin', async (t) => {
  const { log, stdout } = await record(t);
  const result = await zero(['render', log]);
  t.equal(result.code, 0);
  t.equal(result.stderr, '');
  const md = result.stdout;
  t.match(md, /^# Zero transcript: run\.jsonl\n/);
  t.match(md, '- Provider: `scripted`');
  t.match(md, 'The log does not record the prompt', 'a plain exec log has no prompt');
  t.match(md, '### Turn 1\n\nLet me read the notes.');
  t.match(md, '#### Tool call `read_file` (read): ok');
  t.match(md, '```json\n{\n  "path": "notes.txt"\n}\n```');
  t.match(md, '     1\tthe launch moves to Friday');
  t.match(md, '### Final answer\n\nThe launch moves to Friday.');
  t.match(md, '- Status: **success**, exit code 0');
  t.match(md, '- Tokens: 530 prompt · 45 completion · 575 total');
  const piped = await zero(['render', '-'], { stdin: stdout });
  t.equal(piped.code, 0);
  t.equal(piped.stdout, md.replace('# Zero transcript: run.jsonl', '# Zero transcript'), 'stdin with - gives the same transcript');
  const bare = await zero(['render', '--format', 'MARKDOWN'], { stdin: stdout });
  t.equal(bare.stdout, piped.stdout, 'no file is stdin too');
});

t.test('a session file gives the prompt', async (t) => {
  const { session } = await record(t);
  const result = await zero(['render', session]);
  t.equal(result.code, 0);
  t.match(result.stdout, '### Prompt\n\n> Summarise notes.txt');
});

t.test('a session of two runs: each with its own prompt', async (t) => {
  const session = await recordSession(t);
  const md = (await zero(['render', session.file])).stdout;
  t.match(md, new RegExp(`## Run 1: \`${session.runIds[0]}\`[\\s\\S]*### Prompt\\n\\n> When is the launch\\?[\\s\\S]*## Run 2: \`${session.runIds[1]}\`[\\s\\S]*### Prompt\\n\\n> And the time\\?[\\s\\S]*### Final answer\\n\\nAt noon\\.`));
  t.notMatch(md, 'Skipped lines');
});

t.test('framing: pretty-printed and array-wrapped logs, torn last line, several runs', async (t) => {
  const { dir, stdout } = await record(t);
  const events = jsonLines(stdout);
  const expected = (await zero(['render', '-'], { stdin: stdout })).stdout;
  const pretty = events.map((event) => JSON.stringify(event, null, 2)).join('\n') + '\n';
  t.equal((await zero(['render'], { stdin: pretty })).stdout, expected, 'pretty-printed (jq .) log, auto framing');
  t.equal((await zero(['render', '--framing', 'values'], { stdin: pretty })).stdout, expected, '--framing values');
  t.equal((await zero(['render'], { stdin: JSON.stringify(events, null, 1) })).stdout, expected, 'array-wrapped log');
  const torn = stdout.split('\n').slice(0, 6).join('\n') + '\n{"schemaVersion":1,"type":"te';
  const tornResult = await zero(['render', '--framing', 'lines'], { stdin: torn });
  t.equal(tornResult.code, 0, 'a torn log still renders');
  t.match(tornResult.stdout, 'Status: unknown (no run_end');
  t.match(tornResult.stdout, '## Skipped lines\n\n- line 7: not a JSON object');
  const second = stdout.replaceAll(/run_\d{14}_[a-z0-9]{6}/g, 'run_20260101000000_second');
  writeFileSync(join(dir, 'two.jsonl'), stdout + second);
  const two = await zero(['render', join(dir, 'two.jsonl')]);
  t.match(two.stdout, '## Run 1: `run_');
  t.match(two.stdout, '## Run 2: `run_20260101000000_second`');
});

t.test('secrets in a hand-made log are redacted in the transcript', async (t) => {
  const key = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
  const runId = 'run_20260101000000_abcdef';
  const log = [
    { schemaVersion: 1, type: 'run_start', runId, cwd: '/w', provider: 'p', model: 'm' },
    { schemaVersion: 1, type: 'text', runId, delta: `token ${key.slice(0, 12)}` },
    { schemaVersion: 1, type: 'text', runId, delta: key.slice(12) },
    { schemaVersion: 1, type: 'final', runId, text: `token ${key}` },
    { schemaVersion: 1, type: 'run_end', runId, status: 'success', exitCode: 0 },
  ].map((event) => JSON.stringify(event)).join('\n') + '\n';
  for (const format of ['markdown', 'html']) {
    const result = await zero(['render', '--format', format], { stdin: log });
    t.notMatch(result.stdout, key.slice(4), `${format}: the key is gone`);
    t.match(result.stdout, '[REDACTED]');
  }
});

t.test('version 2 logs: reasoning folded, permission requests on their calls, no line skipped', async (t) => {
  const runs = protocolExamples('output v2').filter((run) => run.includes('"run_start"')).join('');
  for (const format of ['markdown', 'html']) {
    const result = await zero(['render', '--format', format, '-'], { stdin: runs });
    t.equal(result.code, 0, format);
    t.notMatch(result.stdout, /Skipped lines|unknown event type/, `${format}: every v2 event type is known`);
    t.match(result.stdout, '<summary>Reasoning</summary>', `${format}: reasoning`);
    t.match(result.stdout, /Permission refused \(outside_workspace\)<\/strong>|\*\*Permission refused \(outside_workspace\)\*\*/, `${format}: the permission refused, and why`);
  }
  const md = (await zero(['render', '-'], { stdin: V2_RUN })).stdout;
  t.match(md, '> **Permission refused (outside_workspace)**: Path "../NOTES.md" is outside the working directory and the --add-dir directories.');
  t.match(md, '> The greeting reads "Helo"; one edit in src/greet.ts fixes it.');
});

t.test('render and stats count the same turns of recorded runs (lib/logs/turns.ts)', async (t) => {
  const dir = t.testdir({ 'notes.txt': NOTES });
  const runs: [string, unknown[], string[]][] = [
    ['a turn of two calls', [{ chunks: ['Reading.'], toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'notes.txt' } }, { id: 'c2', name: 'list_directory', args: {} }], usage: { promptTokens: 5, completionTokens: 3 } }, { text: 'Done.' }], []],
    ['a turn of tool calls alone', [{ toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'notes.txt' } }] }, { text: 'Done.' }], []],
    ['the turn limit, then the call that asks for the answer', [{ chunks: ['Checking.'], toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'notes.txt' } }] }, { text: 'Stopped.' }], ['--max-turns', '1']],
    ['a failed run', [{ chunks: ['Half'], error: { message: 'overloaded', status: 529 } }], []],
  ];
  let log = '';
  for (const [name, turns, flags] of runs) {
    const script = writeScript(dir, turns, `${runs.findIndex((run) => run[0] === name)}.jsonl`);
    log += (await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, ...flags, 'Go'])).stdout;
  }
  const counted = jsonLines((await zero(['stats', '-o', 'json', '-'], { stdin: log })).stdout).filter((line) => line.type === 'run_stats').map((run) => run.model_turns);
  const shown = Array.from((await zero(['render', '-'], { stdin: log })).stdout.matchAll(/- Turns: (\d+) model turns?,/g), (match) => Number(match[1]));
  t.same(counted, [2, 2, 2, 1], 'stats');
  t.same(shown, counted, 'render');
});

/** One run that never ends: `turns` turns of ten text deltas, usage, and a tool call with a 4 KB result. */
function longRun(turns: number): string {
  const runId = 'run_20260101000000_abcdef';
  const line = (type: string, fields: object) => `${JSON.stringify({ schemaVersion: 1, type, runId, ...fields })}\n`;
  const output = `${'x'.repeat(60)}\n`.repeat(64);
  let log = line('run_start', { cwd: '/w', provider: 'scripted', model: 'm' });
  for (let turn = 0; turn < turns; turn++) {
    for (let delta = 0; delta < 10; delta++) log += line('text', { delta: `word ${turn} ${delta} ` });
    log += line('usage', { promptTokens: 10, completionTokens: 2 });
    log += line('tool_call', { id: `c${turn}`, name: 'read_file', args: { path: `f${turn}` }, sideEffect: 'read' });
    log += line('tool_result', { id: `c${turn}`, status: 'ok', output, truncated: false });
  }
  return log;
}

const HEAP_PEAK = pathToFileURL(repoPath('test/helpers/heap-peak.mjs')).href;

/** The most heap `zero render` held (after a full collection) while rendering the file. */
function heapPeak(file: string, format: string): Promise<number> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', HEAP_PEAK, ZERO, 'render', '--format', format, file], { env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) =>
    child.on('close', () => {
      const peak = /\[heap-peak\] (\d+)/.exec(stderr);
      return peak ? resolve(Number(peak[1])) : reject(new Error(`no heap peak: ${stderr}`));
    }),
  );
}

t.test('what render holds does not grow with the log: a run four times as long, nearly the same heap', async (t) => {
  const [short, long] = [longRun(100), longRun(400)];
  const dir = t.testdir({ 'short.jsonl': short, 'long.jsonl': long });
  const grown = Buffer.byteLength(long) - Buffer.byteLength(short);
  for (const format of ['markdown', 'html']) {
    const held = (await heapPeak(join(dir, 'long.jsonl'), format)) - (await heapPeak(join(dir, 'short.jsonl'), format));
    // 1.5 MB more log: holding the whole transcript, render held 1.4 MiB more for Markdown and 2.7 for HTML; streaming, 0.2
    t.ok(held < grown / 2, `${format}: ${(held / 2 ** 20).toFixed(2)} MiB more heap for ${(grown / 2 ** 20).toFixed(2)} MiB more log`);
  }
});

t.test('usage errors exit 2 with a message on stderr', async (t) => {
  const missing = await zero(['render', '/nonexistent/run.jsonl']);
  t.equal(missing.code, 2);
  t.equal(missing.stdout, '');
  t.match(missing.stderr, 'Cannot read /nonexistent/run.jsonl: ENOENT');
  const dir = await zero(['render', tmpdir()]);
  t.equal(dir.code, 2);
  t.match(dir.stderr, `Cannot read ${tmpdir()}`);
  const format = await zero(['render', '--format', 'pdf'], { stdin: '' });
  t.equal(format.code, 2);
  t.match(format.stderr, 'Invalid value for --output-format: "pdf". Expected one of: markdown, html, text.');
  const framing = await zero(['render', '--framing', 'xml'], { stdin: '' });
  t.equal(framing.code, 2);
  t.match(framing.stderr, 'Invalid value for --framing: "xml". Expected one of: lines, values, auto.');
  const flag = await zero(['render', '--bogus'], { stdin: '' });
  t.equal(flag.code, 2);
  const help = await zero(['render', '--help']);
  t.equal(help.code, 0);
  t.match(help.stdout, '-o, --output-format <format>');
  t.match(help.stdout, `zero render ${sessionsRoot(cleanEnv())}/zero_…/events.jsonl -o html`, 'the real session path');
});

t.test('a recorded --multi-turn session with an interrupt and a denied permission, in every format', async (t) => {
  const { dir } = recordedConversation();
  const render = async (format: string) => {
    const result = await zeroHere(['render', dir, '-o', format]);
    t.same([result.code, result.stderr], [0, ''], format);
    return result.stdout;
  };
  const markdown = await render('markdown');
  t.match(markdown, /^# Zero transcript: zero_\d{14}_\w{6}\n/, 'a session folder is named by its id');
  t.match(markdown, '### User turn 1\n\n> Write "Remember the milk." in NOTE.md.\n\n#### Model turn 1\n\n<details><summary>Reasoning</summary>');
  t.match(markdown, '##### Tool call `write_file` (write): error\n\n> **Permission asked, denied**: The client denied permission to run this write_file call. Their reason: keep the README\n');
  t.match(markdown, '#### Answer (model turn 4)\n\nYou said no, so the README is as it was.\n\n### User turn 3\n\n> Run the build.');
  t.match(markdown, '> **Turn 3 interrupted by the client.**\n\n### User turn 4\n\n> Then deploy it.\n\n> **Turn 4 interrupted by the client before the model said anything.**\n\n### User turn 5\n\n> What happened?\n\n#### Answer (model turn 6)\n\nThe build was stopped');
  t.match(markdown, '- Turns: 5 user turns (2 interrupted), 6 model turns, 3 tool calls');
  for (const [format, text] of [['markdown', markdown], ['html', await render('html')], ['text', await render('text')]] as const) {
    for (const said of ['Write &quot;Remember the milk.&quot; in NOTE.md.', 'Now replace the README.', 'Run the build.', 'Then deploy it.', 'What happened?']) {
      t.equal(text.split(format === 'html' ? said : said.replace(/&quot;/g, '"')).length - 1, 1, `${format}: "${said}" once`);
    }
    t.notMatch(text, /Final answer|Answer with a permission_response|does not record the prompt/, `${format}: each turn's answer, what was decided, no missing prompt`);
    t.match(text, /Permission asked, denied/, format);
    t.match(text, /Turn 4 interrupted by the client before the model said anything\./, format);
  }
});

t.test('several files, a session folder among them, rendered as one log', async (t) => {
  const { dir } = recordedConversation();
  const other = join(t.testdir({ 'run.jsonl': protocolExamples('output v1')[0]! }), 'run.jsonl');
  const both = await zeroHere(['render', other, dir, '-o', 'text']);
  t.equal(both.code, 0, both.stderr);
  t.match(both.stdout, /^Zero transcript: run\.jsonl, zero_\d{14}_\w{6}\n/);
  t.match(both.stdout, /\nRun 1: run_[\s\S]*\nRun 2: run_\d{14}_\w{6}\n[\s\S]*User turn 1:/);
});

/** The browser checks are skipped, saying why, only when Debian's chromium is not installed. */
const NO_BROWSER = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium; .ci/run does) to run the browser checks`;

let launched: Promise<Browser> | undefined;
/** One headless Chromium for this file's browser checks (each opens its own context), started by the first of them. */
function sharedBrowser(): Promise<Browser> {
  if (launched === undefined) {
    // playwright starts Chromium with a new empty profile of its own (it refuses --user-data-dir in args).
    const started = import('playwright-core').then(({ chromium }) => chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }));
    t.teardown(async () => (await started).close());
    launched = started;
  }
  return launched;
}

t.test('the rendered HTML escapes the <script> of a tool result', async (t) => {
  const { session } = await record(t);
  const result = await zero(['render', session, '--format', 'html']);
  t.equal(result.code, 0);
  t.notMatch(result.stdout, /<script/i);
  t.match(result.stdout, '&lt;script&gt;document.title=&quot;pwned&quot;');
});

t.test('the HTML page in a real headless browser (Chromium via playwright-core)', { skip: NO_BROWSER }, async (t) => {
  const { dir, session } = await record(t);
  const result = await zero(['render', session, '--format', 'html']);
  t.equal(result.code, 0);
  t.equal(result.stderr, '');
  const html = result.stdout;
  t.notMatch(html, /<script/i, 'the <script> in the tool output is escaped');
  const page = join(dir, 'transcript.html');
  writeFileSync(page, html);
  const browser = await sharedBrowser();
  for (const javaScriptEnabled of [true, false]) {
    const context = await browser.newContext({ javaScriptEnabled });
    const tab = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    tab.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    tab.on('request', (request) => requests.push(request.url()));
    const url = pathToFileURL(page).href;
    const response = await tab.goto(url, { waitUntil: 'load' });
    t.ok(response?.ok(), `the page loads (JavaScript ${javaScriptEnabled ? 'on' : 'off'})`);
    t.same(problems, [], 'no console errors');
    t.same(requests, [url], 'no other request: no network, no external assets');
    t.equal(await tab.title(), 'Zero transcript: events.jsonl', 'the injected script never ran');
    t.equal((await tab.locator('#prompt').innerText()).trim(), 'Summarise notes.txt', 'shows the prompt');
    const tool = tab.locator('.tool[data-tool="read_file"]');
    t.equal(await tool.count(), 1, 'shows the tool call');
    t.ok(await tool.isVisible());
    t.match(await tool.innerText(), /read_file[\s\S]*"path": "notes\.txt"[\s\S]*the launch moves to Friday[\s\S]*<script>document\.title/, 'its arguments and its result, script shown as text');
    t.equal((await tab.locator('#final').innerText()).trim(), 'The launch moves to Friday.', 'shows the final answer');
    t.ok(await tab.locator('#final').isVisible());
    t.match(await tab.locator('table.outcome').innerText(), /success[\s\S]*exit code 0[\s\S]*575 total/);
    await context.close();
  }
});

t.test('a recorded conversation\'s HTML page in the browser: every user turn, each answer, no console error, no duplicate id', { skip: NO_BROWSER }, async (t) => {
  const result = await zeroHere(['render', recordedConversation().dir, '-o', 'html']);
  const page = join(t.testdir(), 'conversation.html');
  writeFileSync(page, result.stdout);
  const browser = await sharedBrowser();
  const tab = await browser.newPage();
  t.teardown(() => tab.close());
  const problems: string[] = [];
  tab.on('console', (message) => void (message.type() === 'error' && problems.push(message.text())));
  await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' });
  t.same(problems, []);
  t.same(await tab.locator('h3.user').allInnerTexts(), [1, 2, 3, 4, 5].map((n) => `USER TURN ${n}`), 'each user turn, headed');
  t.same(await tab.locator('.prompt').allInnerTexts(), ['Write "Remember the milk." in NOTE.md.', 'Now replace the README.', 'Run the build.', 'Then deploy it.', 'What happened?']);
  t.equal(await tab.locator('.text.final').count(), 3, 'three turns answered');
  t.match(await tab.locator('.notice').allInnerTexts(), ['Permission asked, allowed: The client allowed this write_file call.', /^Permission asked, denied: .*keep the README$/, 'Permission asked, allowed: The client allowed this bash call.', 'Turn 3 interrupted by the client.', 'Turn 4 interrupted by the client before the model said anything.']);
  t.equal(await tab.evaluate(() => { const ids = [...document.querySelectorAll('[id]')].map((node) => node.id); return ids.length - new Set(ids).size; }), 0, 'no id twice');
});

t.test('long results are folded in the browser and open on a click', { skip: NO_BROWSER }, async (t) => {
  const runId = 'run_20260101000000_abcdef';
  const output = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
  const log = [
    { schemaVersion: 1, type: 'run_start', runId, cwd: '/w', provider: 'p', model: 'm' },
    { schemaVersion: 1, type: 'tool_call', runId, id: 'c1', name: 'bash', args: { command: 'seq 100' }, sideEffect: 'shell' },
    { schemaVersion: 1, type: 'tool_result', runId, id: 'c1', status: 'ok', output, truncated: false },
    { schemaVersion: 1, type: 'final', runId, text: '' },
    { schemaVersion: 1, type: 'run_end', runId, status: 'success', exitCode: 0 },
  ].map((event) => JSON.stringify(event)).join('\n');
  const html = (await zero(['render', '--format', 'html'], { stdin: log })).stdout;
  const browser = await sharedBrowser();
  const tab = await browser.newPage({ javaScriptEnabled: false });
  t.teardown(() => tab.close());
  await tab.setContent(html);
  const folded = tab.locator('details pre');
  t.notOk(await folded.isVisible(), 'the long result starts folded');
  await tab.locator('details summary').click();
  t.ok(await folded.isVisible(), 'a click opens it, without JavaScript');
  t.match(await folded.innerText(), /line 99/);
});

t.test('the screenshot script writes a PNG', { skip: NO_BROWSER }, async (t) => {
  const out = join(t.testdir(), 'example.png');
  const { makeRenderExample } = await import('../../../bench/render-example.js');
  await makeRenderExample(out);
  const png = readFileSync(out);
  t.same([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
  t.ok(png.length > 10_000, 'with something in it');
});

t.test('a log of another program (sess_… session ids, a run id not of zero\'s form): every run rendered, no line skipped', async (t) => {
  const log = writeForeignLog(t.testdir());
  const { code, stdout } = await zero(['render', log.file]);
  t.equal(code, 0);
  t.equal(stdout.match(/^## Run \d+: /gm)?.length, log.runs);
  t.match(stdout, `## Run ${log.runs}: \`${FOREIGN_RUN_ID}\``);
  t.notMatch(stdout, /Skipped lines/);
});
