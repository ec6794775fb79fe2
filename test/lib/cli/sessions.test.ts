import t from 'tap';
import { formatSessionList, storedEventRenderer } from '../../../lib/cli/sessions.js';
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
});

t.test('storedEventRenderer: stored prompts and events as exec printed them', async (t) => {
  const prompt = { schemaVersion: 1, type: 'prompt', content: 'two\nlines' };
  const text = { schemaVersion: 1, type: 'text', runId: 'run_20261130000000_aaaaaa', delta: 'Hi.' };
  const end = { schemaVersion: 1, type: 'run_end', runId: 'run_20261130000000_aaaaaa', status: 'success', exitCode: 0 };
  const progress: string[] = [];
  const asText = storedEventRenderer('text', { write: (line: string) => progress.push(line) });
  t.same([prompt, text, end].map(asText), ['> two\n> lines\n\n', 'Hi.', '\n']);
  const asJson = storedEventRenderer('json', { write: () => true });
  t.same([prompt, text, end].map(asJson), ['{"type":"prompt","content":"two\\nlines"}\n', '{"type":"text","delta":"Hi."}\n', '{"type":"done","exit_code":0}\n']);
  const asStreamJson = storedEventRenderer('stream-json', { write: () => true });
  t.equal(asStreamJson(prompt), `${JSON.stringify(prompt)}\n`);
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
