import t, { type Test } from 'tap';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatSessionList } from '../../../lib/cli/sessions.js';
import { recordedConversation } from '../../helpers/conversation.js';
import { zeroHere } from '../../helpers/cli.js';
import { cleanEnv } from '../../helpers/zero.js';
import type { SessionMetadata } from '../../../lib/sessions/index.js';

const session: SessionMetadata = {
  id: 'zero_20261130065406_h8c50c',
  title: 'First question',
  cwd: '/repo',
  provider: 'scripted',
  model: 'scripted',
  createdAt: '2026-11-30T06:54:06.000Z',
  updatedAt: '2026-11-30T06:55:00.000Z',
  eventCount: 14,
};

t.test('formatSessionList: a table, or one JSON object per session', async (t) => {
  t.equal(formatSessionList([session], 'text'), 'zero_20261130065406_h8c50c  2026-11-30T06:55:00.000Z     14 events  /repo  First question\n');
  t.equal(formatSessionList([], 'text'), 'No Zero sessions yet.\n');
  t.same(JSON.parse(formatSessionList([session], 'json')), { type: 'session', id: session.id, updated_at: session.updatedAt, cwd: '/repo', title: 'First question', events: 14 });
  t.same(JSON.parse(formatSessionList([{ ...session, parentId: 'zero_20261130000000_parent' }], 'stream-json')), { type: 'session', id: session.id, updatedAt: session.updatedAt, cwd: '/repo', title: 'First question', events: 14, parentId: 'zero_20261130000000_parent' });
  t.equal(formatSessionList([], 'json'), '');
  t.equal(formatSessionList([], 'text', { cwd: '/elsewhere', elsewhere: 3 }), 'No sessions for /elsewhere (3 elsewhere: zero sessions list shows them).\n');
  t.equal(formatSessionList([], 'text', { cwd: '/elsewhere', elsewhere: 0 }), 'No sessions for /elsewhere.\n');
});

/** A ZERO_HOME holding the recorded conversation as its one session. */
function homeWithConversation(t: Test) {
  const conversation = recordedConversation();
  const home = t.testdir();
  mkdirSync(join(home, 'sessions'));
  cpSync(conversation.dir, join(home, 'sessions', conversation.id), { recursive: true });
  return { ...conversation, env: cleanEnv({ ZERO_HOME: home }) };
}

t.test('zero sessions list --cwd DIR with none there says so, and how many there are elsewhere', async (t) => {
  const { env } = homeWithConversation(t);
  const none = await zeroHere(['sessions', 'list', '--cwd', '/nowhere/at/all'], { env });
  t.same([none.code, none.stdout, none.stderr], [0, 'No sessions for /nowhere/at/all (1 elsewhere: zero sessions list shows them).\n', '']);
  t.match((await zeroHere(['sessions', 'list'], { env })).stdout, /^zero_\d{14}_\w{6} .* Write "Remember the milk\." in NOTE\.md\.\n$/);
});

t.test('zero sessions show of a conversation: every user turn, how each ended, the permissions decided', async (t) => {
  const { env, id } = homeWithConversation(t);
  const shown = await zeroHere(['sessions', 'show', id], { env });
  t.equal(shown.code, 0);
  t.equal(
    shown.stdout,
    [
      '> Write "Remember the milk." in NOTE.md.',
      '',
      'I will write a note.',
      'Done: NOTE.md holds your note.',
      '',
      '> Now replace the README.',
      '',
      'I will replace the README.',
      'You said no, so the README is as it was.',
      '',
      '> Run the build.',
      '',
      'Running the build.',
      '',
      '> Then deploy it.',
      '',
      '> What happened?',
      '',
      'The build was stopped before it finished, so nothing was deployed.',
      '',
    ].join('\n'),
    'each user message once, as a paragraph before its answer',
  );
  t.match(shown.stderr, '[permission] write_file: denied. The client denied permission to run this write_file call. Their reason: keep the README\n');
  t.match(shown.stderr, '[turn 3] interrupted by the client\n[turn 4] interrupted by the client before the model said anything\n');
  const json = (await zeroHere(['sessions', 'show', id, '-o', 'json'], { env })).stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
  t.same(json.filter((line) => line.type === 'turn_start' || line.type === 'prompt').map((line) => line.content), ['Write "Remember the milk." in NOTE.md.', 'Write "Remember the milk." in NOTE.md.', 'Now replace the README.', 'Run the build.', 'Then deploy it.', 'What happened?']);
});

t.test('zero sessions show of an unknown session, in any format: said on stderr, nothing on stdout, exit 2', async (t) => {
  const { env } = homeWithConversation(t);
  for (const format of ['text', 'json', 'stream-json']) {
    const unknown = await zeroHere(['sessions', 'show', 'zero_20990101000000_aaaaaa', '-o', format], { env });
    t.same([unknown.code, unknown.stdout, unknown.stderr], [2, '', '[zero] Zero session not found: zero_20990101000000_aaaaaa\n'], format);
  }
});

t.test('formatSessionList: a fork names its parent in the table', async (t) => {
  t.match(formatSessionList([{ ...session, parentId: 'zero_20261130000000_parent' }], 'text'), /  First question  \(fork of zero_20261130000000_parent\)\n$/);
});

t.test('formatSessionList: the --tag labels of a session, in every format', async (t) => {
  const tagged = { ...session, id: 'ci-4711', tags: ['ci', 'nightly'], parentId: 'zero_20261130000000_parent' };
  t.equal(formatSessionList([tagged], 'text'), 'ci-4711  2026-11-30T06:55:00.000Z     14 events  /repo  First question  [ci, nightly]  (fork of zero_20261130000000_parent)\n');
  t.match(JSON.parse(formatSessionList([tagged], 'json')), { id: 'ci-4711', tags: ['ci', 'nightly'] });
  t.match(JSON.parse(formatSessionList([tagged], 'stream-json')), { id: 'ci-4711', tags: ['ci', 'nightly'] });
});

t.test('zero sessions list --limit N --cwd DIR', async (t) => {
  const { cleanEnv, jsonLines, tempDir, writeScript, zero } = await import('../../helpers/zero.js');
  const env = cleanEnv({ ZERO_HOME: tempDir(t) });
  const [here, there] = [tempDir(t), tempDir(t)];
  const script = writeScript(tempDir(t), [{ text: 'ok' }]);
  for (const [cwd, prompt] of [[here, 'one'], [there, 'two'], [here, 'three']]) {
    t.equal((await zero(['exec', '--provider', 'scripted', '--script', script, '-C', cwd!, prompt!], { env })).code, 0);
  }
  const titles = async (args: string[]) => jsonLines((await zero(['sessions', 'list', '-o', 'json', ...args], { env })).stdout).map((line) => line.title);
  t.same(await titles([]), ['three', 'two', 'one']);
  t.same(await titles(['--limit', '2']), ['three', 'two']);
  t.same(await titles(['--cwd', here]), ['three', 'one']);
  t.same(await titles(['-n', '1', '--cwd', there]), ['two']);
  const bad = await zero(['sessions', 'list', '--limit', '0'], { env });
  t.same([bad.code, bad.stderr], [2, '[zero] Invalid value for --limit: "0". Expected a positive integer.\n']);
});
