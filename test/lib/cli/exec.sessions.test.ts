import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { zeroHere } from '../../helpers/cli.js';
import { isRunning } from '../../helpers/processes.js';
import { ZERO, cleanEnv, eventTypes, jsonLines, nth, tempDir, writeScript, zero } from '../../helpers/zero.js';

// Sessions end to end: every run recorded; --resume sends the whole conversation back; --fork copies it.
// Runs are in-process (zeroHere); bin/zero is spawned where only a process shows it: kill -9, a umask.

function sessionsIn(home: string): string[] {
  try {
    return readdirSync(join(home, 'sessions')).sort();
  } catch {
    return [];
  }
}

async function exec(t: Test, home: string, cwd: string, turns: unknown[], args: string[]) {
  const script = writeScript(tempDir(t), turns);
  const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', cwd, ...args], { env: cleanEnv({ ZERO_HOME: home }) });
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
  const list = await zeroHere(['sessions', 'list'], { env });
  t.equal(list.code, 0);
  t.match(list.stdout, new RegExp(`^${id}  \\S+ +\\d+ events  ${cwd.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}  Greet me\\n$`));
  t.match(jsonLines((await zeroHere(['sessions', 'list', '-o', 'json'], { env })).stdout), [{ type: 'session', id, cwd, title: 'Greet me' }]);
  const showJson = await zeroHere(['sessions', 'show', id!, '-o', 'stream-json'], { env });
  t.equal(showJson.stdout, readFileSync(join(home, 'sessions', id!, 'events.jsonl'), 'utf8'), 'stream-json shows the stored lines as they are');
  const showText = await zeroHere(['sessions', 'show', id!], { env });
  t.equal(showText.stdout, '> Greet me\n\nHello there.\n');
  const missing = await zeroHere(['sessions', 'show', 'zero_20200101000000_zzzzzz', '-o', 'stream-json'], { env });
  t.equal(missing.code, 2);
  t.same([missing.stdout, missing.stderr], ['', '[zero] Zero session not found: zero_20200101000000_zzzzzz\n'], 'said on stderr: no run is made up');
  t.ok(statSync(join(home, 'sessions', id!)).isDirectory());
});

function storedLines(home: string, id: string): Record<string, unknown>[] {
  return jsonLines(readFileSync(join(home, 'sessions', id, 'events.jsonl'), 'utf8'));
}

t.test('kill -9 while a bash tool runs: every line streamed is in the session, and --resume sends it', async (t) => {
  const home = tempDir(t);
  const cwd = tempDir(t);
  const script = writeScript(tempDir(t), [{ chunks: ['Let me ', 'look ', 'around.'], toolCalls: [{ id: 'b1', name: 'bash', args: { command: 'echo $$ > bash.pid; exec sleep 30' } }] }]);
  t.teardown(() => {
    // zero was killed with no chance to end its tool: end the command here.
    const pidFile = join(cwd, 'bash.pid');
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
    if (pid > 0 && isRunning(pid)) process.kill(-pid, 'SIGKILL');
  });
  let streamed = '';
  // unconfined: the pid the command records is the host's, which the teardown ends
  const killed = await zero(['exec', '-o', 'stream-json', '--auto', 'high', '--sandbox', 'off', '--provider', 'scripted', '--script', script, '-C', cwd, 'Look around'], {
    env: cleanEnv({ ZERO_HOME: home }),
    onSpawn: (child) => {
      child.stdout!.on('data', (chunk: Buffer) => (streamed += chunk));
      const running = () => child.exitCode === null && child.signalCode === null;
      void (async () => {
        while (!/"type":"tool_call"/.test(streamed)) {
          if (!running()) return;
          await sleep(10);
        }
        const seen = Date.now();
        const [id] = sessionsIn(home);
        const keptToolCall = () => storedLines(home, id!).some((event) => event.type === 'tool_call');
        // 100 ms is the promise; on a busy machine the write may take longer, so wait for the file (bounded) too.
        while (Date.now() - seen < 100 || (!keptToolCall() && Date.now() - seen < 5000)) await sleep(10);
        child.kill('SIGKILL');
      })();
    },
  });
  t.equal(killed.signal, 'SIGKILL');
  const lines = jsonLines(killed.stdout);
  t.same(eventTypes(lines), ['run_start', 'warning', 'text', 'tool_call']);
  const [id] = sessionsIn(home);
  const stored = storedLines(home, id!);
  t.same(stored[0], { schemaVersion: 1, type: 'prompt', content: 'Look around' });
  t.same(stored.slice(1, 1 + lines.length), lines, 'every streamed line, as it was streamed');

  const resumed = await exec(t, home, cwd, [{ expect: { contains: ['Look around', 'Let me look around.', 'And now?'] }, text: 'Done.' }], ['--resume', id!, 'And now?']);
  t.equal(resumed.code, 0, resumed.stdout);
  t.match(resumed.events[0], { type: 'run_start', sessionId: id });
});

t.test('a damaged line in the middle of events.jsonl is skipped with a warning naming it; the session resumes', async (t) => {
  const home = tempDir(t);
  const cwd = tempDir(t);
  await exec(t, home, cwd, [{ text: 'The answer is 42.' }], ['Question one']);
  const [id] = sessionsIn(home);
  const file = join(home, 'sessions', id!, 'events.jsonl');
  const [prompt, ...rest] = readFileSync(file, 'utf8').split('\n');
  writeFileSync(file, [prompt, '{"schemaVersion":1,"type":"te', ...rest].join('\n'));
  const resumed = await exec(t, home, cwd, [{ expect: { contains: ['Question one', 'The answer is 42.', 'Question two'] }, text: 'Yes.' }], ['--resume', id!, 'Question two']);
  t.equal(resumed.code, 0, resumed.stdout);
  t.same(eventTypes(resumed.events).slice(0, 2), ['run_start', 'warning']);
  t.match(nth(resumed.events, 'warning'), { message: `Invalid session ${id} at line 2: expected a JSON object. That line was skipped.` });

  const shown = await zeroHere(['sessions', 'show', id!], { env: cleanEnv({ ZERO_HOME: home }) });
  t.equal(shown.code, 0);
  t.match(shown.stdout, /> Question one\n\nThe answer is 42\.\n\n> Question two\n\nYes\.\n/);
  t.match(shown.stderr, `[zero] WARNING: Invalid session ${id} at line 2: expected a JSON object. That line was skipped.`);
});

t.test('a corrupt metadata.json: the session is still listed, shown and resumed (rebuilt from its events)', async (t) => {
  const home = tempDir(t);
  const cwd = tempDir(t);
  await exec(t, home, cwd, [{ text: 'The answer is 42.' }], ['Question one']);
  const [id] = sessionsIn(home);
  writeFileSync(join(home, 'sessions', id!, 'metadata.json'), '{"id":"zero_');
  const env = cleanEnv({ ZERO_HOME: home });
  const list = await zeroHere(['sessions', 'list'], { env });
  t.equal(list.code, 0);
  t.match(list.stdout, new RegExp(`^${id}  \\S+ +\\d+ events  \\S+  Question one\\n$`));
  const shown = await zeroHere(['sessions', 'show', id!], { env });
  t.equal(shown.stdout, '> Question one\n\nThe answer is 42.\n');
  const resumed = await exec(t, home, cwd, [{ expect: { contains: ['Question one', 'The answer is 42.'] }, text: 'ok' }], ['--resume', 'Question two']);
  t.equal(resumed.code, 0, resumed.stdout);
  t.match(resumed.events[0], { sessionId: id });
  t.match(JSON.parse(readFileSync(join(home, 'sessions', id!, 'metadata.json'), 'utf8')), { id, title: 'Question one', cwd });
});

t.test('under a umask of 022, session folders are 0700 and their files 0600', async (t) => {
  const home = tempDir(t);
  const cwd = tempDir(t);
  const script = writeScript(tempDir(t), [{ text: 'Hi.' }]);
  const child = spawn('sh', ['-c', 'umask 022 && exec "$0" "$@"', process.execPath, ZERO, 'exec', '--provider', 'scripted', '--script', script, '-C', cwd, 'Hello'], { env: cleanEnv({ ZERO_HOME: home }), stdio: 'ignore' });
  const [code] = await once(child, 'close');
  t.equal(code, 0);
  const [id] = sessionsIn(home);
  const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
  t.equal(mode(join(home, 'sessions')), '700');
  t.equal(mode(join(home, 'sessions', id!)), '700');
  t.equal(mode(join(home, 'sessions', id!, 'events.jsonl')), '600');
  t.equal(mode(join(home, 'sessions', id!, 'metadata.json')), '600');
});

t.test('a session store that cannot be used is a usage error naming it, before the run starts', async (t) => {
  const dir = tempDir(t, { 'a-file': 'not a folder' });
  const cwd = tempDir(t);
  const script = writeScript(dir, [{ text: 'unused' }]);
  const run = (home: string) => zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', cwd, 'hi'], { env: cleanEnv({ ZERO_HOME: home }) });
  const cases: [string, string][] = [
    [join(dir, 'a-file'), 'part of that path is a file, not a folder (ENOTDIR)'],
    ['/proc/zero', 'a folder cannot be created there (ENOENT)'],
  ];
  for (const [home, problem] of cases) {
    const result = await run(home);
    t.equal(result.code, 2, home);
    t.same(jsonLines(result.stdout).map(({ type, code, message, exitCode }) => ({ type, code, message, exitCode })), [
      { type: 'error', code: 'usage_error', message: `Cannot use the session store at ${join(home, 'sessions')}: ${problem}. Set ZERO_HOME to a writable folder, or pass --no-session.`, exitCode: undefined },
      { type: 'run_end', code: undefined, message: undefined, exitCode: 2 },
    ]);
  }
});

t.test('--no-session and ZERO_NO_SESSION=1: nothing on disk, no sessionId; with --resume or --fork a usage error', async (t) => {
  const home = join(tempDir(t), 'zero-home');
  const cwd = tempDir(t);
  const flag = await exec(t, home, cwd, [{ text: 'Hi.' }], ['--no-session', 'Hello']);
  t.equal(flag.code, 0, flag.stdout);
  t.same(eventTypes(flag.events), ['run_start', 'text', 'final', 'run_end']);
  t.notOk('sessionId' in flag.events[0]!);
  const script = writeScript(tempDir(t), [{ text: 'Hi.' }]);
  const variable = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', cwd, 'Hello'], { env: cleanEnv({ ZERO_HOME: home, ZERO_NO_SESSION: '1' }) });
  t.equal(variable.code, 0);
  t.notOk('sessionId' in jsonLines(variable.stdout)[0]!);
  t.notOk(existsSync(home), 'nothing was written');

  const refused = await exec(t, home, cwd, [{ text: 'unused' }], ['--no-session', '--resume', 'Hello']);
  t.equal(refused.code, 2);
  t.match(refused.events, [{ type: 'error', code: 'usage_error', message: '--no-session cannot be used with --resume or --fork: they continue a recorded session.' }, { type: 'run_end', exitCode: 2 }]);
  const help = await zeroHere(['exec', '--help']);
  t.match(help.stdout, /--no-session +record nothing/);
});
t.test('metadata.json, sessions list and sessions show are redacted, even for a session file edited by hand', async (t) => {
  const home = tempDir(t);
  const cwd = join(tempDir(t), `ws-${secret}`);
  mkdirSync(cwd);
  const loaded = 'zk7731Qm7TfRp2LxWc9VbN3sYdHg6JkAe5Uo';
  const env = cleanEnv({ ZERO_HOME: home, ZERO_API_KEY: loaded });
  const script = writeScript(tempDir(t), [{ text: 'ok' }]);
  const run = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '--model', `m-${loaded}`, '-C', cwd, 'hi'], { env });
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
    const list = await zeroHere(['sessions', 'list', '-o', format], { env });
    t.match(list.stdout, id!, `sessions list -o ${format}`);
    t.notMatch(list.stdout, secret, `sessions list -o ${format}: no raw cwd`);
    const show = await zeroHere(['sessions', 'show', id!, '-o', format], { env });
    t.match(show.stdout, 'use [REDACTED]', `sessions show -o ${format}`);
    t.notMatch(show.stdout, secret, `sessions show -o ${format}`);
  }
});

t.test("--resume continues with the session's own provider, model and script unless flags say otherwise", async (t) => {
  const home = tempDir(t);
  const cwd = tempDir(t, { 'README.md': '# zero-stream\n' });
  const env = cleanEnv({ ZERO_HOME: home });
  const script = writeScript(tempDir(t), [{ expect: { contains: ['repo'] }, text: 'An answer.' }]);
  const first = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-m', 'demo', '-C', cwd, 'What is this repo?'], { env });
  t.equal(first.code, 0);
  // the README's own example: no provider flag, no ZERO_PROVIDER, no key
  const resumed = await zeroHere(['exec', '-o', 'stream-json', '-C', cwd, '--resume', 'And how is it tested?'], { env });
  t.equal(resumed.code, 0, resumed.stdout);
  t.match(jsonLines(resumed.stdout)[0], { type: 'run_start', provider: 'scripted', model: 'demo' });
  const otherModel = await zeroHere(['exec', '-o', 'stream-json', '-C', cwd, '-m', 'other', '--resume', 'Again?'], { env });
  t.match(jsonLines(otherModel.stdout)[0], { provider: 'scripted', model: 'other' }, '--model replaces only the model');
  const otherProvider = await zeroHere(['exec', '-o', 'stream-json', '-C', cwd, '--provider', 'openai', '--resume', 'Again?'], { env });
  t.equal(otherProvider.code, 3, '--provider starts from nothing of the session: here, no key');
  t.match(jsonLines(otherProvider.stdout)[0], { code: 'provider_error', message: /needs an API key/ });
  const forked = await zeroHere(['exec', '-o', 'stream-json', '-C', cwd, '--fork', String(jsonLines(first.stdout)[0]!.sessionId), 'Forked?'], { env });
  t.match(jsonLines(forked.stdout)[0], { provider: 'scripted', model: 'demo' }, '--fork too');
});
