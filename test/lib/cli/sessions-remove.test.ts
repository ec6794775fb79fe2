import t from 'tap';
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, jsonLines, tempDir, writeScript } from '../../helpers/zero.js';
import { zeroHere } from '../../helpers/cli.js';

// Each check runs zero in this process (what it prints and its exit code are the same); bin/zero itself is run
// where only a process shows the behaviour.
const zero = zeroHere;

async function store(t: Parameters<typeof tempDir>[0], prompts: string[]) {
  const home = tempDir(t);
  const env = cleanEnv({ ZERO_HOME: home });
  const script = writeScript(tempDir(t), [{ text: 'ok' }]);
  const cwd = tempDir(t);
  for (const prompt of prompts) await zero(['exec', '--provider', 'scripted', '--script', script, '-C', cwd, prompt], { env });
  const ids = jsonLines((await zero(['sessions', 'list', '-o', 'json'], { env })).stdout).map((line) => String(line.id));
  return { home, env, ids, dir: (id: string) => join(home, 'sessions', id) };
}

t.test('zero sessions rm ID: the folder goes; an unknown id removes nothing', async (t) => {
  const { env, ids, dir } = await store(t, ['one', 'two']);
  const removed = await zero(['sessions', 'rm', ids[0]!], { env });
  t.same([removed.code, removed.stdout], [0, `removed ${ids[0]}\n`]);
  t.notOk(existsSync(dir(ids[0]!)));
  const unknown = await zero(['sessions', 'rm', ids[1]!, 'zero_20200101000000_aaaaaa'], { env });
  t.same([unknown.code, unknown.stderr], [2, '[zero] Zero session not found: zero_20200101000000_aaaaaa\n']);
  t.ok(existsSync(dir(ids[1]!)), 'checked first: the known one is still there');
});

t.test('zero sessions rm refuses a session a live run holds', async (t) => {
  const { env, ids, dir } = await store(t, ['one']);
  writeFileSync(join(dir(ids[0]!), 'lock'), `${process.pid}\n`);
  const result = await zero(['sessions', 'rm', ids[0]!], { env });
  t.equal(result.code, 2);
  t.match(result.stderr, /is in use by another run/);
  t.ok(existsSync(dir(ids[0]!)));
});

t.test('zero sessions prune --older-than DAYS: the sessions not updated for that long', async (t) => {
  const { env, ids, dir, home } = await store(t, ['old', 'new']);
  const [newer, older] = ids;
  // metadata.json says when a session was updated: make the older one ten days old
  const metadata = join(dir(older!), 'metadata.json');
  const { readFileSync } = await import('node:fs');
  const value = JSON.parse(readFileSync(metadata, 'utf8')) as { updatedAt: string };
  value.updatedAt = new Date(Date.now() - 10 * 86_400_000).toISOString();
  writeFileSync(metadata, JSON.stringify(value));
  utimesSync(metadata, new Date(), new Date());
  const pruned = await zero(['sessions', 'prune', '--older-than', '7', '-o', 'json'], { env });
  t.equal(pruned.code, 0, pruned.stderr);
  t.same(jsonLines(pruned.stdout), [{ type: 'removed', id: older }]);
  t.same(readdirSync(join(home, 'sessions')), [newer]);
  const missing = await zero(['sessions', 'prune'], { env });
  t.equal(missing.code, 2);
  t.match(missing.stderr, /--older-than <days>' not specified\. See zero sessions prune --help\./);
});
