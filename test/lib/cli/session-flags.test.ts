import t, { type Test } from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkNewSessionId, namesStoredSession, reclaimPrompt, sessionLabels } from '../../../lib/cli/session-flags.js';
import { zeroHere } from '../../helpers/cli.js';
import { cleanEnv, jsonLines, tempDir, writeScript } from '../../helpers/zero.js';

t.test('--init-session-id, --session-title, --tag: checked, trimmed, tags once each', async (t) => {
  t.same(sessionLabels({}, undefined), {});
  t.same(sessionLabels({ initSessionId: ' ci-4711 ', sessionTitle: '  Nightly\n  check ', tag: ['ci', ' nightly ', 'ci'] }, undefined), { id: 'ci-4711', title: 'Nightly check', tags: ['ci', 'nightly'] });
  t.same(sessionLabels({ fork: 'zero_20260101000000_abcdef', initSessionId: 'my_fork' }, undefined), { id: 'my_fork' }, 'a fork may be named');
  for (const bad of ['../x', 'a.b', 'a b', '_x', '', 'x'.repeat(129), 'zero_1/..']) {
    t.throws(() => sessionLabels({ initSessionId: bad }, undefined), { code: 'usage_error', message: `Invalid value for --init-session-id: ${JSON.stringify(bad)}. Expected a session id: a letter or digit, then up to 127 letters, digits, "_" or "-".` }, bad);
  }
  t.throws(() => sessionLabels({ sessionTitle: ' \n' }, undefined), { message: 'Invalid value for --session-title: " \\n". Expected some text.' });
  t.throws(() => sessionLabels({ tag: ['ok', ''] }, undefined), { message: 'Invalid value for --tag: "". Expected some text.' });
});

t.test('they name a session the run creates: with --resume or with nothing recorded they are usage errors', async (t) => {
  t.throws(() => sessionLabels({ resume: true, initSessionId: 'x1' }, undefined), { code: 'usage_error', message: 'Use --init-session-id only when creating or forking a session, not with --resume.' });
  t.throws(() => sessionLabels({ resume: 'zero_20260101000000_abcdef', sessionTitle: 'T', tag: ['a'] }, undefined), { message: 'Use --session-title, --tag only when creating or forking a session, not with --resume.' });
  t.throws(() => sessionLabels({ tag: ['a'] }, '--no-session'), { message: '--tag cannot be used with --no-session: nothing is recorded.' });
});

t.test('--resume VALUE is a session when it starts with zero_ or the store holds it; else it is prompt text', async (t) => {
  const home = t.testdir({ sessions: { 'ci-4711': { 'metadata.json': '{}' }, 'half-made': {} } });
  const env = { ZERO_HOME: home };
  t.ok(namesStoredSession('zero_20260101000000_abcdef', env), 'ours, stored or not (a missing one is "not found")');
  t.ok(namesStoredSession('ci-4711', env));
  t.notOk(namesStoredSession('half-made', env), 'a folder without metadata is no session yet');
  t.notOk(namesStoredSession('continue', env));
  t.notOk(namesStoredSession('../sessions/ci-4711', env), 'never a path');
  t.same(reclaimPrompt(['please'], { resume: 'ci-4711' }, env), [['please'], { resume: 'ci-4711' }]);
  t.same(reclaimPrompt(['please'], { resume: 'continue' }, env), [['continue', 'please'], { resume: true }]);
});

t.test('checkNewSessionId: an id that exists, or one that looks like a key, is refused before the run', async (t) => {
  const root = t.testdir({ 'ci-4711': {} });
  await t.resolves(checkNewSessionId(root, {}));
  await t.resolves(checkNewSessionId(root, { id: 'ci-4712' }));
  await t.rejects(checkNewSessionId(root, { id: 'ci-4711' }), { code: 'usage_error', message: 'Zero session already exists: ci-4711' });
  await t.rejects(checkNewSessionId(root, { id: ['ghp', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('_') }), { code: 'usage_error', message: /looks like a secret/ });
});

async function exec(t: Test, home: string, args: string[], turns: unknown[] = [{ text: 'Done.' }]) {
  const dir = tempDir(t);
  const script = writeScript(dir, turns);
  const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, ...args], { env: cleanEnv({ ZERO_HOME: home }) });
  return { ...result, events: jsonLines(result.stdout), dir };
}

t.test('end to end: the chosen id, title and tags are kept and listed; --resume ID finds the session; a taken id fails before run_start', async (t) => {
  const home = tempDir(t);
  const first = await exec(t, home, ['--init-session-id', 'ci-4711', '--session-title', 'Nightly check', '--tag', 'ci', '--tag', 'nightly', 'Run the checks']);
  t.equal(first.code, 0, first.stdout);
  t.match(first.events[0], { type: 'run_start', sessionId: 'ci-4711' });
  t.same(readdirSync(join(home, 'sessions')), ['ci-4711']);
  t.match(JSON.parse(readFileSync(join(home, 'sessions', 'ci-4711', 'metadata.json'), 'utf8')), { id: 'ci-4711', title: 'Nightly check', tags: ['ci', 'nightly'] });

  const text = await zeroHere(['sessions', 'list'], { env: cleanEnv({ ZERO_HOME: home }) });
  t.match(text.stdout, /^ci-4711  \S+ +\d+ events  \S+  Nightly check  \[ci, nightly\]\n$/);
  const json = await zeroHere(['sessions', 'list', '-o', 'json'], { env: cleanEnv({ ZERO_HOME: home }) });
  t.match(jsonLines(json.stdout), [{ type: 'session', id: 'ci-4711', title: 'Nightly check', tags: ['ci', 'nightly'] }]);
  const stream = await zeroHere(['sessions', 'list', '-o', 'stream-json'], { env: cleanEnv({ ZERO_HOME: home }) });
  t.match(jsonLines(stream.stdout), [{ id: 'ci-4711', tags: ['ci', 'nightly'] }]);

  const resumed = await exec(t, home, ['--resume', 'ci-4711', 'And now?'], [{ expect: { contains: ['Run the checks', 'Done.', 'And now?'] }, text: 'Resumed.' }]);
  t.equal(resumed.code, 0, resumed.stdout);
  t.match(resumed.events[0], { sessionId: 'ci-4711' }, 'an id without zero_ is found in the store, not taken as the prompt');

  const taken = await exec(t, home, ['--init-session-id', 'ci-4711', 'Again']);
  t.equal(taken.code, 2);
  t.same(taken.events.map((event) => event.type), ['error', 'run_end']);
  t.match(taken.events[0], { code: 'usage_error', message: 'Zero session already exists: ci-4711' });
  t.same(readdirSync(join(home, 'sessions')), ['ci-4711']);
});

t.test('a fork takes a chosen id and title, and keeps the parent\'s tags unless given its own', async (t) => {
  const home = tempDir(t);
  await exec(t, home, ['--init-session-id', 'parent-1', '--tag', 'base', 'First']);
  const fork = await exec(t, home, ['--fork', 'parent-1', '--init-session-id', 'child-1', '--session-title', 'Second try', 'Second'], [{ expect: { contains: ['First', 'Second'] }, text: 'Forked.' }]);
  t.equal(fork.code, 0, fork.stdout);
  t.match(fork.events[0], { sessionId: 'child-1' });
  t.match(JSON.parse(readFileSync(join(home, 'sessions', 'child-1', 'metadata.json'), 'utf8')), { id: 'child-1', title: 'Second try', tags: ['base'], parentId: 'parent-1' });
});
