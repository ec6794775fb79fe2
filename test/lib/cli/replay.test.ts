import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText } from '../../../lib/redaction/index.js';
import { createSerializer } from '../../../lib/output/serializer.js';
import type { OutputEvent } from '../../../lib/protocol/types.js';
import { secretsCorpus } from '../../fixtures/secrets/corpus.js';
import { protocolExamples, V2_RUN } from '../../helpers/protocol-examples.js';
import { recordSession } from '../../helpers/sessions.js';
import { recordedConversation } from '../../helpers/conversation.js';
import { zeroHere } from '../../helpers/cli.js';
import { FOREIGN_RUN_ID, writeForeignLog } from '../../helpers/foreign-log.js';
import { jsonLines, writeScript } from '../../helpers/zero.js';

// Each check runs zero in this process (what it prints and its exit code are the same); bin/zero itself is run
// where only a process shows the behaviour.
const zero = zeroHere;

// End to end: runs recorded by `zero exec -o stream-json` (scripted provider), replayed by bin/zero.

const TOOL_RUN = [
  { chunks: ['Let me look.'], toolCalls: [{ id: 'call_1', name: 'read_file', args: { path: 'notes.txt' } }], usage: { promptTokens: 5, completionTokens: 3 } },
  { text: 'The launch moves to Friday.' },
];
const FAILING_RUN = [{ chunks: ['Half ', 'an answer'], error: { message: 'upstream overloaded', status: 529 } }];
const ids = (text: string) => text.replace(/run_\d{14}_[0-9a-z]{6}/g, 'RUN').replace(/zero_\d{14}_[0-9a-z]{6}/g, 'SESSION');

async function setup(t: Test, turns: unknown[]) {
  const dir = t.testdir({ 'notes.txt': 'the launch moves to Friday\n' });
  const script = writeScript(dir, turns);
  const exec = (format: string) => zero(['exec', '-o', format, '--provider', 'scripted', '--script', script, '-C', dir, 'Summarise notes.txt']);
  const recorded = await exec('stream-json');
  const log = join(dir, 'run.jsonl');
  writeFileSync(log, recorded.stdout);
  return { dir, log, recorded, exec };
}

for (const [name, turns, code] of [['a tool run', TOOL_RUN, 0], ['a failing run', FAILING_RUN, 3]] as const) {
  t.test(`${name}: each format is what exec printed`, async (t) => {
    const { log, recorded, exec } = await setup(t, turns as unknown[]);
    t.equal(recorded.code, code);
    const same = await zero(['replay', log]);
    t.equal(same.stdout, recorded.stdout, 'stream-json: byte-identical, runId kept');
    t.equal(same.code, code, 'exits with the recorded exit code');
    t.equal(same.stderr, '');
    for (const format of ['json', 'text', 'stream-json']) {
      const live = await exec(format);
      const replayed = await zero(['replay', '-o', format, log]);
      t.equal(ids(replayed.stdout), ids(live.stdout), `${format}: stdout as exec printed it (ids aside)`);
      t.equal(ids(replayed.stderr), ids(live.stderr), `${format}: stderr as exec printed it`);
      t.equal(replayed.code, live.code, `${format}: exit code`);
    }
  });
}

t.test('a log edited by hand is redacted on the way out, ids kept valid and paired', async (t) => {
  const { log, recorded } = await setup(t, TOOL_RUN);
  const token = ['ghp_', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('');
  writeFileSync(log, recorded.stdout.replaceAll('call_1', `call_${token}`).replace('The launch', `The ${token} launch`));
  const replayed = await zero(['replay', log]);
  t.equal(replayed.code, 0, replayed.stdout);
  t.notMatch(replayed.stdout, token);
  const events = jsonLines(replayed.stdout);
  const callId = events.find((event) => event.type === 'tool_call')?.id;
  t.match(callId, /^redacted_[0-9a-f]{16}$/);
  t.equal(events.find((event) => event.type === 'tool_result')?.id, callId);
});

t.test('--new-run-id re-stamps every event; --delay spaces them', async (t) => {
  const { log, recorded } = await setup(t, TOOL_RUN);
  const started = performance.now();
  const { stdout, code } = await zero(['replay', '--new-run-id', '--delay', '30', log]);
  const elapsed = performance.now() - started;
  t.equal(code, 0);
  const events = jsonLines(stdout);
  // 30 ms between each two events (a Node timer may fire up to a millisecond early as a clock reads it)
  const gaps = events.length - 1;
  t.ok(gaps >= 5 && elapsed >= 29 * gaps, `paced: ${Math.round(elapsed)} ms for ${gaps} gaps of 30 ms`);
  const original = jsonLines(recorded.stdout);
  t.equal(new Set(events.map((e) => e.runId)).size, 1);
  t.not(events[0]!.runId, original[0]!.runId);
  t.equal(ids(stdout), ids(recorded.stdout), 'otherwise the same bytes');
});

t.test('a multi-run file: --run picks one, the first by default', async (t) => {
  const first = await setup(t, TOOL_RUN);
  const second = await setup(t, FAILING_RUN);
  const both = join(first.dir, 'both.jsonl');
  writeFileSync(both, first.recorded.stdout + second.recorded.stdout);
  const runId = String(jsonLines(second.recorded.stdout)[0]!.runId);
  const picked = await zero(['replay', '--run', runId, both]);
  t.equal(picked.stdout, second.recorded.stdout);
  t.equal(picked.code, 3);
  const dflt = await zero(['replay', both]);
  t.equal(dflt.stdout, first.recorded.stdout);
  t.equal(dflt.code, 0);
  const missing = await zero(['replay', '--run', 'run_nope', '-o', 'stream-json', both]);
  t.equal(missing.code, 2);
  t.match(jsonLines(missing.stdout), [{ type: 'error', message: /No run run_nope/ }, { type: 'run_end', exitCode: 2 }]);
});

t.test('pretty-printed and array-wrapped logs replay the same', async (t) => {
  const { dir, recorded } = await setup(t, TOOL_RUN);
  const events = jsonLines(recorded.stdout);
  const pretty = join(dir, 'pretty.json');
  const array = join(dir, 'array.json');
  writeFileSync(pretty, events.map((e) => JSON.stringify(e, null, 2)).join(''));
  writeFileSync(array, JSON.stringify(events, null, 2));
  t.equal((await zero(['replay', pretty])).stdout, recorded.stdout);
  t.equal((await zero(['replay', array])).stdout, recorded.stdout);
  t.equal((await zero(['replay', '--framing', 'values', '-', ], { stdin: recorded.stdout })).stdout, recorded.stdout, 'stdin, values framing');
  const strict = await zero(['replay', '--framing', 'lines', '-o', 'stream-json', pretty]);
  t.equal(strict.code, 2, 'lines framing refuses a pretty-printed log');
});

t.test('broken logs: a usage error after what could be replayed', async (t) => {
  const { dir, recorded } = await setup(t, TOOL_RUN);
  const lines = recorded.stdout.trimEnd().split('\n');
  const cases: Record<string, string> = {
    'missing run_end': lines.slice(0, -1).join('\n') + '\n',
    'torn last line': lines.slice(0, -1).join('\n') + '\n' + lines.at(-1)!.slice(0, 20),
    'unknown field': [lines[0], lines[1]!.replace('{', '{"extra":1,'), ...lines.slice(2)].join('\n') + '\n',
    'wrong schemaVersion': [lines[0]!.replace('"schemaVersion":1', '"schemaVersion":2'), ...lines.slice(1)].join('\n') + '\n',
  };
  for (const [name, text] of Object.entries(cases)) {
    const file = join(dir, 'broken.jsonl');
    writeFileSync(file, text);
    const result = await zero(['replay', file]);
    t.equal(result.code, 2, `${name}: exit 2`);
    const events = jsonLines(result.stdout);
    t.match(events.slice(-2), [{ type: 'error', code: 'usage_error' }, { type: 'run_end', exitCode: 2 }], `${name}: reported as exec reports failures`);
  }
  const two = join(dir, 'two-ends.jsonl');
  writeFileSync(two, recorded.stdout + lines.at(-1) + '\n');
  t.equal((await zero(['replay', two])).stdout, recorded.stdout, 'two run_ends: the replay stops at the first');
});

t.test('a session file: the first run replayed, or the one --run names; the prompts are no run\'s', async (t) => {
  const session = await recordSession(t);
  const runLines = (runId: string) => session.text.split('\n').filter((line) => line.includes(`"runId":"${runId}"`)).map((line) => `${line}\n`).join('');
  const first = await zero(['replay', session.file]);
  t.equal(first.code, 0);
  t.equal(first.stdout, runLines(session.runIds[0]!), 'the first run, byte for byte');
  const second = await zero(['replay', '--run', session.runIds[1]!, session.file]);
  t.equal(second.code, 0);
  t.equal(second.stdout, runLines(session.runIds[1]!));
});

t.test('usage errors', async (t) => {
  t.equal((await zero(['replay', '/nonexistent/log.jsonl'])).code, 2);
  t.equal((await zero(['replay', '--delay', 'soon', '-'], { stdin: '' })).code, 2);
  t.match(await zero(['replay', '--delay', '2147483648', '-'], { stdin: '' }), { code: 2, stdout: '', stderr: /--delay: "2147483648"\. Expected at most 2147483647 milliseconds/ }, 'a delay a timer cannot wait (said on stderr: no run is made up)');
  t.equal((await zero(['replay', '-o', 'yaml', '-'], { stdin: '' })).code, 2);
  t.equal((await zero(['replay', '-'], { stdin: '' })).code, 2, 'an empty log');
});

t.test('a run whose secrets were split across deltas after long whitespace-free runs (issue 11): its log replays no fragment', async (t) => {
  // the self-identifying ones: recognisable without a name before them
  const secrets = secretsCorpus(11, 1).map((entry) => entry.secret).filter((secret) => !redactText(` ${secret} `).includes(secret));
  const chunks = secrets.flatMap((secret, n) => {
    const at = 3 + (n % (secret.length - 6));
    const run = n % 2 === 0 ? `{"c":"${'x'.repeat(1100 + n)}","key":"` : `${'QUJDREVG'.repeat(300)},`;
    return [run + secret.slice(0, at), `${secret.slice(at)}"} `];
  });
  const { log, recorded } = await setup(t, [{ chunks }]);
  t.equal(recorded.code, 0, recorded.stderr);
  const fragments = secrets.flatMap((secret) => Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8)));
  t.same(fragments.filter((fragment) => recorded.stdout.includes(fragment)), [], 'the recorded log holds no fragment');
  for (const format of ['stream-json', 'json', 'text']) {
    const replayed = await zero(['replay', '-o', format, log]);
    t.equal(replayed.code, 0, replayed.stderr);
    const printed = replayed.stdout + replayed.stderr;
    t.same(fragments.filter((fragment) => printed.includes(fragment)), [], `${format}: no 8-character fragment of any secret`);
  }
});

// The usage error for a hand-edited log was stamped with the log's own runId, a planted key and all.
t.test('a log whose runId holds a key: the failure is reported under a fresh runId, the key nowhere', async (t) => {
  const key = 'AKIA' + 'QWERTYUIOP123456';
  const dir = t.testdir({ 'evil.jsonl': `${JSON.stringify({ schemaVersion: 1, type: 'run_start', runId: `run_${key}`, sessionId: 'zero_20261201000000_abcdef', cwd: '/', provider: 'p', model: 'm' })}\n` });
  const replayed = await zero(['replay', '-o', 'stream-json', join(dir, 'evil.jsonl')]);
  t.equal(replayed.code, 2);
  t.notMatch(replayed.stdout + replayed.stderr, key);
  t.match(jsonLines(replayed.stdout).find((event) => event.type === 'error'), { code: 'usage_error', runId: /^run_\d{14}_[0-9a-z]{6}$/ });
});

/** What exec prints for these events in a format: stdout and the text format's progress lines on stderr. */
function rendered(format: 'json' | 'text', jsonl: string) {
  let stderr = '';
  const write = createSerializer(format, { write: (text: string) => (stderr += text) });
  const stdout = jsonLines(jsonl).map((event) => write(event as OutputEvent)).join('');
  return { stdout, stderr };
}

t.test('a version 2 run replays as it was recorded: stream-json byte-identical, text and json rendered, its exit code', async (t) => {
  const dir = t.testdir({});
  const interrupted = protocolExamples('output v2').find((run) => run.includes('"interrupted"'))!;
  for (const [name, run, code] of [['§11.2', V2_RUN, 0], ['interrupted', interrupted, 130]] as const) {
    const log = join(dir, 'v2.jsonl');
    writeFileSync(log, run);
    t.same(await zero(['replay', log]), { stdout: run, stderr: '', code, signal: null }, `${name}: stream-json`);
    for (const format of ['json', 'text'] as const) {
      const replayed = await zero(['replay', '-o', format, log]);
      t.same({ stdout: replayed.stdout, stderr: replayed.stderr }, rendered(format, run), `${name}: ${format}`);
      t.equal(replayed.code, code);
    }
  }
});

t.test('--new-run-id on a version 2 run: every event kept, in version 2, under the new runId', async (t) => {
  const log = join(t.testdir({}), 'v2.jsonl');
  writeFileSync(log, V2_RUN);
  const { stdout, code } = await zero(['replay', '--new-run-id', log]);
  t.equal(code, 0);
  const runIds = new Set(jsonLines(stdout).map((event) => event.runId));
  t.equal(runIds.size, 1);
  t.notOk(runIds.has(jsonLines(V2_RUN)[0]!.runId));
  t.equal(ids(stdout), ids(V2_RUN), 'reasoning, checkpoint, permission_request and tool_result names kept, byte for byte');
});

t.test('a version 2 run that turns to version 1: a usage error, reported in version 2', async (t) => {
  const log = join(t.testdir({}), 'mixed.jsonl');
  const lines = V2_RUN.trimEnd().split('\n');
  writeFileSync(log, [...lines.slice(0, 4), lines[4]!.replace('"schemaVersion":2', '"schemaVersion":1'), ...lines.slice(5)].join('\n') + '\n');
  const result = await zero(['replay', log]);
  t.equal(result.code, 2);
  const events = jsonLines(result.stdout);
  t.same(events.slice(0, 4), jsonLines(V2_RUN).slice(0, 4), 'what could be replayed');
  const runId = events[0]!.runId;
  t.same(events.slice(4), [
    { schemaVersion: 2, type: 'error', runId, code: 'usage_error', message: `Invalid recorded event at line 5: schemaVersion: Expected 2, received 1 (run ${runId} is version 2 from line 1)`, recoverable: false },
    { schemaVersion: 2, type: 'run_end', runId, status: 'error', exitCode: 2 },
  ]);
});

t.test('replay -o text of a recorded conversation: each user message, how each turn ended, the permissions decided', async (t) => {
  const { dir } = recordedConversation();
  const replayed = await zeroHere(['replay', dir, '-o', 'text']);
  t.equal(replayed.code, 0);
  t.match(replayed.stdout, /^> Write "Remember the milk\." in NOTE\.md\.\n\nI will write a note\.\nDone: NOTE\.md holds your note\.\n\n> Now replace the README\.\n/);
  t.match(replayed.stdout, 'Running the build.\n\n> Then deploy it.\n\n> What happened?\n\nThe build was stopped before it finished, so nothing was deployed.\n');
  t.match(replayed.stderr, '[permission] write_file: denied. The client denied permission to run this write_file call. Their reason: keep the README\n[error] ');
  t.match(replayed.stderr, '[turn 3] interrupted by the client\n[turn 4] interrupted by the client before the model said anything\n');
  const streamed = await zeroHere(['replay', dir]);
  t.equal(streamed.stdout, recordedConversation().text.split('\n').slice(1).join('\n'), 'stream-json: the run byte for byte (the stored prompt is no run\'s)');
});

t.test('several files read as one log: the first run of the first, or --run from any; a broken line named in its file', async (t) => {
  const [first, second] = protocolExamples('output v1');
  const dir = t.testdir({ 'a.jsonl': first!, 'b.jsonl': second!, 'c.jsonl': `${second!.split('\n')[0]}\nnot json\n` });
  const runOf = (log: string) => String(JSON.parse(log.split('\n')[0]!).runId);
  const [a, b, c] = ['a.jsonl', 'b.jsonl', 'c.jsonl'].map((name) => join(dir, name));
  t.equal((await zeroHere(['replay', a!, b!])).stdout, first);
  t.equal((await zeroHere(['replay', a!, b!, '--run', runOf(second!)])).stdout, second);
  const broken = await zeroHere(['replay', a!, c!, '--run', runOf(second!), '-o', 'text']);
  t.equal(broken.code, 2);
  t.match(broken.stderr, `Invalid recorded event at line 2 of ${c}: not a JSON object.`);
});

t.test('a log of another program: --run picks a run whose id is not of zero\'s form, every event replayed', async (t) => {
  const log = writeForeignLog(t.testdir());
  const replayed = await zero(['replay', '--run', FOREIGN_RUN_ID, log.file]);
  t.equal(replayed.code, 0, replayed.stderr);
  const events = jsonLines(replayed.stdout);
  t.same(events.map((event) => event.type), log.lastRun.map((line) => JSON.parse(line).type));
  t.ok(events.every((event) => event.runId === FOREIGN_RUN_ID));
});
