import t, { type Test } from 'tap';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, eventTypes, jsonLines, nth, tempDir, writeScript, zero } from '../../helpers/zero.js';

// Sessions end to end: every run recorded; --resume sends the whole conversation back; --fork copies it.

function sessionsIn(home: string): string[] {
  try {
    return readdirSync(join(home, 'sessions')).sort();
  } catch {
    return [];
  }
}

async function exec(t: Test, home: string, cwd: string, turns: unknown[], args: string[]) {
  const script = writeScript(tempDir(t), turns);
  const result = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', cwd, ...args], { env: cleanEnv({ ZERO_HOME: home }) });
  return { ...result, events: jsonLines(result.stdout) };
}

const secret = ['ghp_', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('');

t.test('run, then --resume: the model receives the earlier prompt, tool call, result and answer', async (t) => {
  const home = tempDir(t);
  const cwd = tempDir(t, { 'notes.txt': `launch on Friday; token ${secret}\n` });
  const first = await exec(t, home, cwd, [{ toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'notes.txt' } }] }, { text: 'It says launch on Friday.' }], ['When is the launch?']);
  t.equal(first.code, 0);
  const [id] = sessionsIn(home);
  t.match(first.events[0], { type: 'run_start', sessionId: id });

  const second = await exec(t, home, cwd, [{ expect: { contains: ['When is the launch?', 'read_file', '"path":"notes.txt"', 'launch on Friday; token', 'It says launch on Friday.', 'And the time?'] }, text: 'Noon.' }], ['--resume', 'And the time?']);
  t.equal(second.code, 0, second.stdout);
  t.match(second.events[0], { sessionId: id });
  t.same(sessionsIn(home), [id], 'the same session continued');

  const stored = readFileSync(join(home, 'sessions', id!, 'events.jsonl'), 'utf8');
  t.notMatch(stored, secret, 'a secret in tool output never reaches events.jsonl');
  t.match(stored, /\{"schemaVersion":1,"type":"prompt","content":"And the time\?"\}/);
  const metadata = JSON.parse(readFileSync(join(home, 'sessions', id!, 'metadata.json'), 'utf8'));
  t.match(metadata, { id, title: 'When is the launch?', cwd, provider: 'scripted', eventCount: stored.trim().split('\n').length });
});

t.test('--resume ID names the session; --fork copies it and leaves the parent byte-identical', async (t) => {
  const home = tempDir(t);
  const cwd = tempDir(t);
  await exec(t, home, cwd, [{ text: 'The answer is 42.' }], ['Question one']);
  const [parent] = sessionsIn(home);
  const parentDir = join(home, 'sessions', parent!);
  const before = [readFileSync(join(parentDir, 'events.jsonl')), readFileSync(join(parentDir, 'metadata.json'))];
  const fork = await exec(t, home, cwd, [{ expect: { contains: ['Question one', 'The answer is 42.'] }, text: 'Forked.' }], ['--fork', parent!, 'Question two']);
  t.equal(fork.code, 0, fork.stdout);
  const child = fork.events[0]?.sessionId as string;
  t.not(child, parent);
  t.same([readFileSync(join(parentDir, 'events.jsonl')), readFileSync(join(parentDir, 'metadata.json'))], before, 'the parent is untouched');
  t.match(JSON.parse(readFileSync(join(home, 'sessions', child, 'metadata.json'), 'utf8')), { parentId: parent });
  const resumed = await exec(t, home, cwd, [{ expect: { contains: ['Question one'] }, text: 'ok' }], ['--resume', parent!, 'Again']);
  t.equal(resumed.code, 0);
  t.match(resumed.events[0], { sessionId: parent });
});

t.test('session usage errors: exit 2, error + run_end, no run_start, nothing created', async (t) => {
  const home = tempDir(t);
  const cwd = tempDir(t);
  const cases: [string[], RegExp][] = [
    [['--resume', 'x', '--fork', 'zero_20260101000000_abcdef', 'hi'], /^Use either --resume or --fork, not both\.$/],
    [['--resume', 'zero_20260101000000_abcdef', 'hi'], /^Zero session not found: zero_20260101000000_abcdef$/],
    [['--fork', '../x', 'hi'], /^Invalid session id: "\.\.\/x"$/],
    [['--resume', 'hi'], /^No Zero sessions available to resume\.$/],
  ];
  for (const [args, message] of cases) {
    const { code, events } = await exec(t, home, cwd, [{ text: 'unused' }], args);
    t.equal(code, 2, args.join(' '));
    t.match(events, [{ type: 'error', code: 'usage_error', message }, { type: 'run_end', exitCode: 2 }]);
  }
  t.same(sessionsIn(home), []);
});

t.test('--max-context-chars trims the oldest history, with a warning', async (t) => {
  const home = tempDir(t);
  const cwd = tempDir(t);
  await exec(t, home, cwd, [{ text: 'x'.repeat(400) }], ['An old, long exchange']);
  await exec(t, home, cwd, [{ text: 'Recent answer.' }], ['--resume', 'Recent question']);
  const third = await exec(t, home, cwd, [{ expect: { contains: ['Recent question'] }, text: 'ok' }], ['--resume', '--max-context-chars', '200', 'Now']);
  t.equal(third.code, 0, third.stdout);
  t.same(eventTypes(third.events).slice(0, 2), ['run_start', 'warning']);
  t.match(nth(third.events, 'warning'), { message: /oldest turns were left out/ });
});

t.test('zero sessions list and show', async (t) => {
  const home = tempDir(t);
  const cwd = tempDir(t);
  await exec(t, home, cwd, [{ chunks: ['Hello', ' there.'] }], ['Greet me']);
  const [id] = sessionsIn(home);
  const env = cleanEnv({ ZERO_HOME: home });
  const list = await zero(['sessions', 'list'], { env });
  t.equal(list.code, 0);
  t.match(list.stdout, new RegExp(`^${id}  \\S+ +\\d+ events  ${cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  Greet me\\n$`));
  t.match(jsonLines((await zero(['sessions', 'list', '-o', 'json'], { env })).stdout), [{ type: 'session', id, cwd, title: 'Greet me' }]);
  const showJson = await zero(['sessions', 'show', id!, '-o', 'stream-json'], { env });
  t.equal(showJson.stdout, readFileSync(join(home, 'sessions', id!, 'events.jsonl'), 'utf8'), 'stream-json shows the stored lines as they are');
  const showText = await zero(['sessions', 'show', id!], { env });
  t.equal(showText.stdout, '> Greet me\n\nHello there.\n');
  const missing = await zero(['sessions', 'show', 'zero_20200101000000_zzzzzz', '-o', 'stream-json'], { env });
  t.equal(missing.code, 2);
  t.match(jsonLines(missing.stdout)[0], { code: 'usage_error', message: 'Zero session not found: zero_20200101000000_zzzzzz' });
  t.ok(statSync(join(home, 'sessions', id!)).isDirectory());
});

t.test('metadata.json, sessions list and sessions show are redacted, even for a session file edited by hand', async (t) => {
  const home = tempDir(t);
  const cwd = join(tempDir(t), `ws-${secret}`);
  mkdirSync(cwd);
  const loaded = 'zk7731Qm7TfRp2LxWc9VbN3sYdHg6JkAe5Uo';
  const env = cleanEnv({ ZERO_HOME: home, ZERO_API_KEY: loaded });
  const script = writeScript(tempDir(t), [{ text: 'ok' }]);
  const run = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '--model', `m-${loaded}`, '-C', cwd, 'hi'], { env });
  t.equal(run.code, 0, run.stderr);
  const [id] = sessionsIn(home);
  const metadata = readFileSync(join(home, 'sessions', id!, 'metadata.json'), 'utf8');
  t.notMatch(metadata, secret, 'no secret in the stored cwd');
  t.notMatch(metadata, loaded, 'no credential in the stored model');
  t.match(JSON.parse(metadata), { cwd: /ws-\[REDACTED\]$/, model: 'm-[REDACTED]' });

  // a session file edited by hand: stored data is input like any other
  appendFileSync(join(home, 'sessions', id!, 'events.jsonl'), `${JSON.stringify({ schemaVersion: 1, type: 'prompt', content: `use ${secret}` })}\n`);
  writeFileSync(join(home, 'sessions', id!, 'metadata.json'), metadata.replace('ws-[REDACTED]', `ws-${secret}`));
  for (const format of ['text', 'json', 'stream-json']) {
    const list = await zero(['sessions', 'list', '-o', format], { env });
    t.match(list.stdout, id!, `sessions list -o ${format}`);
    t.notMatch(list.stdout, secret, `sessions list -o ${format}: no raw cwd`);
    const show = await zero(['sessions', 'show', id!, '-o', format], { env });
    t.match(show.stdout, 'use [REDACTED]', `sessions show -o ${format}`);
    t.notMatch(show.stdout, secret, `sessions show -o ${format}`);
  }
});
