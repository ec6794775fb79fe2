import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText } from '../../../lib/redaction/index.js';
import { charactersScanned } from '../../../lib/redaction/stream.js';
import { secretsCorpus } from '../../fixtures/secrets/corpus.js';
import { V2_RUN } from '../../helpers/protocol-examples.js';
import { recordSession } from '../../helpers/sessions.js';
import { zeroHere } from '../../helpers/cli.js';
import { ZERO, cleanEnv, jsonLines, writeScript } from '../../helpers/zero.js';

// Each check runs zero in this process (what it prints and its exit code are the same); bin/zero itself is run
// where only a process shows the behaviour.
const zero = zeroHere;

// End to end: recorded runs (`zero exec -o stream-json`, scripted provider) with secrets put back in, through bin/zero redact.

const TOOL_RUN = [
  { chunks: ['Let me ', 'look at the notes.'], toolCalls: [{ id: 'call_1', name: 'read_file', args: { path: 'notes.txt' } }] },
  { chunks: ['The launch ', 'moves to ', 'Friday.'] },
];

async function recorded(t: Test) {
  const dir = t.testdir({ 'notes.txt': 'the launch moves to Friday\n' });
  const script = writeScript(dir, TOOL_RUN);
  const { stdout } = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, 'Summarise notes.txt']);
  const events = jsonLines(stdout);
  return { dir, stdout, events, runId: String(events[0]!.runId) };
}

const stamp = (runId: string, event: Record<string, unknown>) => JSON.stringify({ schemaVersion: 1, type: event.type, runId, ...event });

t.test('a clean log comes out byte-identical', async (t) => {
  const { stdout } = await recorded(t);
  const result = await zero(['redact'], { stdin: stdout });
  t.equal(result.code, 0);
  t.equal(result.stdout, stdout);
  t.equal(result.stderr, '');
  const withJunk = stdout + 'a line that is not JSON\n\n' + stdout;
  t.equal((await zero(['redact', '-'], { stdin: withJunk })).stdout, withJunk.replace('\n\n', '\n'), 'non-JSON lines kept (blank lines are not lines)');
});

t.test('the secret corpus, split across deltas, in tool results and in plain text: all redacted', async (t) => {
  const { stdout, runId, dir } = await recorded(t);
  const lines = stdout.trimEnd().split('\n');
  const corpus = secretsCorpus(20261130, 2);
  const injected: string[] = [];
  for (const [n, entry] of corpus.entries()) {
    for (const context of entry.contexts) {
      // three deltas, cut inside the secret
      const at = context.indexOf(entry.secret);
      const cuts = [at + 2, at + Math.floor(entry.secret.length / 2)];
      const parts = [context.slice(0, cuts[0]), context.slice(cuts[0], cuts[1]), context.slice(cuts[1])];
      for (const delta of parts) injected.push(stamp(runId, { type: 'text', delta }));
      injected.push(stamp(runId, { type: 'tool_call', id: `s${n}`, name: 'bash', args: { command: context }, sideEffect: 'shell' }));
      injected.push(stamp(runId, { type: 'tool_result', id: `s${n}`, status: 'ok', output: context, truncated: false }));
    }
    injected.push(`not json: ${entry.contexts[0]}`);
  }
  const log = [lines[0], ...injected, ...lines.slice(1)].join('\n') + '\n';
  const file = join(dir, 'secrets.jsonl');
  writeFileSync(file, log);
  const result = await zero(['redact', file]);
  t.equal(result.code, 0);
  const leaked = corpus.filter((entry) => result.stdout.includes(entry.secret));
  t.same(leaked.map((entry) => entry.rule), [], 'no secret of the corpus is left');
  t.ok(result.stdout.includes('[REDACTED]'));
  const out = result.stdout.trimEnd().split('\n');
  for (const line of lines) t.ok(out.includes(line), `clean line kept byte-identical: ${line.slice(0, 60)}`);
  t.ok(out.filter((line) => line.startsWith('not json: ')).length === corpus.length, 'non-JSON lines kept, redacted');
  // what comes out is still a valid log: same keys in the same order on re-split deltas
  for (const line of out.filter((line) => line.startsWith('{'))) {
    const event = JSON.parse(line) as Record<string, unknown>;
    if (event.type === 'text') t.same(Object.keys(event), ['schemaVersion', 'type', 'runId', 'delta']);
  }
  const cleanOut = join(dir, 'out.jsonl');
  writeFileSync(cleanOut, out.filter((line) => line.startsWith('{')).join('\n') + '\n');
  const validated = await zero(['validate', cleanOut]);
  t.equal(validated.code, 0, validated.stdout);
});

t.test('a secret in one delta split character by character', async (t) => {
  const { stdout, runId } = await recorded(t);
  const lines = stdout.trimEnd().split('\n');
  const [entry] = secretsCorpus(7, 1);
  const text = `here: ${entry!.secret} done`;
  const deltas = [...text].map((c) => stamp(runId, { type: 'text', delta: c }));
  const log = [lines[0], ...deltas, ...lines.slice(1)].join('\n') + '\n';
  const result = await zero(['redact'], { stdin: log });
  t.notMatch(result.stdout, entry!.secret);
  const texts = jsonLines(result.stdout).filter((e) => e.type === 'text').map((e) => e.delta).join('');
  t.match(texts, /^here: \[REDACTED\] done/);
});

t.test('pretty-printed and array-wrapped logs: redacted, written as JSONL', async (t) => {
  const { events, runId, stdout } = await recorded(t);
  const secretful = [events[0], { schemaVersion: 1, type: 'text', runId, delta: 'password=hunter2hunter2 ok' }, ...events.slice(1)];
  for (const [name, text] of Object.entries({ pretty: secretful.map((e) => JSON.stringify(e, null, 2)).join(''), array: JSON.stringify(secretful, null, 2) })) {
    const result = await zero(['redact', '-'], { stdin: text });
    t.equal(result.code, 0, name);
    t.notMatch(result.stdout, 'hunter2', name);
    t.equal(jsonLines(result.stdout).length >= events.length, true, name);
  }
  const torn = stdout + stdout.split('\n')[1]!.slice(0, 30);
  const result = await zero(['redact'], { stdin: torn });
  t.equal(result.stdout, torn + '\n', 'a torn last line is kept');
});

t.test('a session file comes out byte-identical, its prompts included', async (t) => {
  const session = await recordSession(t);
  t.match(session.text, /^\{"schemaVersion":1,"type":"prompt","content":"When is the launch\?"\}\n/);
  const result = await zero(['redact', session.file]);
  t.equal(result.code, 0);
  t.equal(result.stdout, session.text);
});

t.test('usage errors exit 2', async (t) => {
  t.equal((await zero(['redact', '/nonexistent/x.jsonl'])).code, 2);
  t.equal((await zero(['redact', '--framing', 'no', '-'], { stdin: '' })).code, 2);
});

// Built as text (JSON.stringify would overflow too); this crashed zero redact with "Maximum call stack size exceeded".
t.test('a value nested 100 000 deep is kept as text, redacted, and the rest of the log goes on', async (t) => {
  const { stdout, runId } = await recorded(t);
  const secret = 'sk-' + 'proj-' + 'Q'.repeat(40);
  const deepValue = `{"note":"${secret}","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const log = stdout + deepValue + '\n' + stamp(runId, { type: 'text', delta: `key ${secret}` }) + '\n';
  for (const framing of ['lines', 'values']) {
    const result = await zero(['redact', '--framing', framing, '-'], { stdin: log });
    t.equal(result.code, 0, `${framing}: no crash`);
    t.notOk(result.stdout.includes(secret), `${framing}: the secret in the deep value and after it is redacted`);
    t.ok(result.stdout.startsWith(stdout), `${framing}: the events before it are unchanged`);
    t.ok(result.stdout.includes(`{"note":"[REDACTED]","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}\n`), `${framing}: the deep value is kept as its text`);
  }
});

/** Deltas of the issue 11 shape: a long whitespace-free run, then a secret split across two deltas. */
function splitAfterLongRuns(runId: string): { deltas: string[]; secrets: string[] } {
  const deltas: string[] = [];
  // the self-identifying ones: recognisable without a name before them
  const entries = secretsCorpus(11, 1).filter((entry) => !redactText(` ${entry.secret} `).includes(entry.secret));
  for (const [n, { secret }] of entries.entries()) {
    const run = n % 2 === 0 ? `{"c":"${'x'.repeat(1100 + n)}","key":"` : `${'QUJDREVG'.repeat(300)},`;
    const at = 3 + (n % Math.max(1, secret.length - 6));
    deltas.push(stamp(runId, { type: 'text', delta: run + secret.slice(0, at) }), stamp(runId, { type: 'text', delta: `${secret.slice(at)}"} ` }));
  }
  return { deltas, secrets: entries.map((entry) => entry.secret) };
}

const fragmentsOf = (secrets: string[]) => secrets.flatMap((secret) => Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8)));

t.test('secrets split across deltas after long whitespace-free runs (issue 11): zero redact leaves no fragment', async (t) => {
  const { stdout, runId } = await recorded(t);
  const lines = stdout.trimEnd().split('\n');
  const { deltas, secrets } = splitAfterLongRuns(runId);
  const log = [lines[0], ...deltas, ...lines.slice(1)].join('\n') + '\n';
  const result = await zero(['redact'], { stdin: log });
  t.equal(result.code, 0, result.stderr);
  t.same(fragmentsOf(secrets).filter((fragment) => result.stdout.includes(fragment)), [], 'no 8-character fragment of any secret');
  t.equal(result.stdout.split('[REDACTED]').length - 1, secrets.length, 'each secret replaced once, whole');
});

t.test('a version 2 log with secrets split across reasoning deltas: no fragment left, clean lines byte-identical, still valid', async (t) => {
  const lines = V2_RUN.trimEnd().split('\n');
  const runId = String(JSON.parse(lines[0]!).runId);
  const { deltas, secrets } = splitAfterLongRuns(runId);
  const asReasoning = deltas.map((line) => line.replace('"schemaVersion":1,"type":"text"', '"schemaVersion":2,"type":"reasoning"'));
  t.ok(asReasoning.every((line) => line.includes('"type":"reasoning"')));
  // after the run's own reasoning, before its first text: where §3.3 puts reasoning
  const log = [...lines.slice(0, 4), ...asReasoning, ...lines.slice(4)].join('\n') + '\n';
  const result = await zero(['redact'], { stdin: log });
  t.equal(result.code, 0, result.stderr);
  t.same(fragmentsOf(secrets).filter((fragment) => result.stdout.includes(fragment)), [], 'no 8-character fragment of any secret');
  const out = result.stdout.trimEnd().split('\n');
  for (const line of lines) t.ok(out.includes(line), `clean line kept byte-identical: ${line.slice(0, 70)}`);
  t.equal((await zero(['redact'], { stdin: V2_RUN })).stdout, V2_RUN, 'the clean v2 run: byte-identical');
  t.match(await zero(['validate', '-'], { stdin: result.stdout }), { code: 0, stdout: /^valid: / }, 'the redacted log is a valid v2 log');
});

t.test('clean lines stay byte-identical whatever their encoding: a Latin-1 byte on a line without a secret comes out as it went in', async (t) => {
  const runId = 'run_20261201000000_latin1';
  const start = Buffer.from(JSON.stringify({ schemaVersion: 1, type: 'run_start', runId, cwd: '/', provider: 'p', model: 'm' }));
  // a text delta and a tool result, each with é written as the single byte 0xE9 (Latin-1): not valid UTF-8
  const delta = Buffer.concat([Buffer.from(`{"schemaVersion":1,"type":"text","runId":"${runId}","delta":"caf`), Buffer.from([0xe9]), Buffer.from('"}')]);
  const note = Buffer.concat([Buffer.from(`{"schemaVersion":1,"type":"warning","runId":"${runId}","message":"r`), Buffer.from([0xe9]), Buffer.from('sum"}')]);
  const end = Buffer.from(JSON.stringify({ schemaVersion: 1, type: 'run_end', runId, status: 'success', exitCode: 0 }));
  const log = Buffer.concat([start, delta, note, end].flatMap((line) => [line, Buffer.from('\n')]));
  const dir = t.testdir({});
  const file = join(dir, 'latin1.jsonl');
  writeFileSync(file, log);
  const child = spawn(process.execPath, [ZERO, 'redact', file], { env: cleanEnv() });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const code = await new Promise((resolve) => child.on('close', resolve));
  t.equal(code, 0);
  t.ok(Buffer.concat(chunks).equals(log), 'every byte as it was');
});

t.test('several files read as one log: their lines in order, each file\'s last line ended', async (t) => {
  const key = ['ghp_', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('');
  const dir = t.testdir({ 'a.jsonl': '{"schemaVersion":1,"type":"warning","runId":"run_20260101000000_abcdef","message":"clean"}', 'b.jsonl': `{"schemaVersion":1,"type":"warning","runId":"run_20260101000000_abcdef","message":"${key}"}\n` });
  const redacted = await zeroHere(['redact', join(dir, 'a.jsonl'), join(dir, 'b.jsonl')]);
  t.equal(redacted.code, 0);
  t.equal(redacted.stdout, '{"schemaVersion":1,"type":"warning","runId":"run_20260101000000_abcdef","message":"clean"}\n{"schemaVersion":1,"type":"warning","runId":"run_20260101000000_abcdef","message":"[REDACTED]"}\n');
});

t.test('a log of 8 MB of a JWT-like run in 1,000-character deltas: the marker once, in linear work', async (t) => {
  const runId = 'run_20260101000000_abcdef';
  const body = 'NeyJhbGciOiJIUzI1NiJ9xYz_-Q'.repeat(38).slice(0, 1000);
  const deltas = [`the token: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.`, ...Array.from({ length: 8000 }, () => body)];
  const log = [
    stamp(runId, { type: 'run_start', cwd: '/', provider: 'p', model: 'm' }),
    ...deltas.map((delta) => stamp(runId, { type: 'text', delta })),
    stamp(runId, { type: 'run_end', status: 'success', exitCode: 0 }),
  ].join('\n');
  const file = join(t.testdir(), 'jwt.jsonl');
  writeFileSync(file, log + '\n');
  const before = charactersScanned();
  const result = await zeroHere(['redact', file]);
  const perChar = (charactersScanned() - before) / deltas.join('').length;
  t.equal(result.code, 0);
  t.notOk(result.stdout.includes(body.slice(0, 12)), 'nothing of the run is written');
  t.match(result.stdout, /"delta":"the token: \[REDACTED\]"/);
  // about one look per character; slicing the whole held run at every delta was thousands (98 s for this log)
  t.ok(perChar < 20, `${perChar.toFixed(2)} characters of text looked at per character`);
});

t.test('--max-line-bytes: a line longer than the limit is a usage error that names the flag; raising it reads the line', async (t) => {
  const { dir, stdout } = await recorded(t);
  const key = ['sk-proj-', 'Qm7Xt2Lp9Rv4Nc8Hb3Wd6Kf1Zs5Yg0Ja'].join('');
  const log = join(dir, 'long.jsonl');
  writeFileSync(log, `${stdout.split('\n')[0]}\n${JSON.stringify({ schemaVersion: 1, type: 'warning', runId: jsonLines(stdout)[0]!.runId, message: `${'x'.repeat(3000)} token=${key}` })}\n`);
  const refused = await zero(['redact', '--max-line-bytes', '1000', log]);
  t.equal(refused.code, 2);
  t.match(refused.stderr, /line 2: the line is longer than 1000 bytes \(--max-line-bytes\)/);
  const read = await zero(['redact', '--max-line-bytes', '5000', log]);
  t.equal(read.code, 0);
  t.equal(read.stdout.split('\n').length, 3, 'both lines out');
  t.notMatch(read.stdout, key);
  t.match(read.stdout, 'token=[REDACTED]');
  t.equal((await zero(['redact', '--max-line-bytes', '0', log])).code, 2, 'not a positive integer: a usage error');
});
