import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultName, discardWorktree, movedInto, prepareWorktree, repositoryFolder, worktreeRequest, worktreesRoot } from '../../../lib/cli/worktree.js';
import { zeroHere } from '../../helpers/cli.js';
import { cleanEnv, jsonLines, tempDir, writeScript } from '../../helpers/zero.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=test@example.com', '-c', 'user.name=test', ...args], { cwd, encoding: 'utf8' }).trim();

/** A git repository with one commit holding README.md, in a folder of its own (its real path: git reports that). */
function repository(t: Test, name = 'My Repo'): string {
  const dir = join(realpathSync(tempDir(t)), name);
  mkdirSync(dir);
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'README.md'), '# project\n');
  git(dir, 'add', 'README.md');
  git(dir, 'commit', '-q', '-m', 'first');
  return dir;
}

const worktrees = (repo: string) => git(repo, 'worktree', 'list', '--porcelain').split('\n').filter((line) => line.startsWith('worktree ')).map((line) => line.slice(9));

t.test('the flags: --worktree [NAME], --worktree-dir DIR, checked as Zero checks them', async (t) => {
  t.equal(worktreeRequest({}), undefined);
  t.same(worktreeRequest({ worktree: true }), {});
  t.same(worktreeRequest({ worktree: ' fix-1.b_2 ', worktreeDir: 'trees' }), { name: 'fix-1.b_2', baseDir: 'trees' });
  t.throws(() => worktreeRequest({ worktreeDir: 'trees' }), { code: 'usage_error', message: '--worktree-dir requires --worktree.' });
  t.throws(() => worktreeRequest({ worktree: true, fork: 'zero_20260101000000_abcdef' }), { message: '--fork cannot be used with --worktree. Forked sessions must continue in the source session workspace.' });
  for (const bad of ['Fix the bug', '../up', '.hidden', 'a/b', 'x'.repeat(82)]) {
    t.throws(() => worktreeRequest({ worktree: bad }), { code: 'usage_error', message: `Invalid worktree name ${JSON.stringify(bad)}: use letters, numbers, dots, dashes, or underscores. (A word after --worktree is its name: give the prompt before it, or with --prompt.)` }, bad);
  }
  t.throws(() => worktreeRequest({ worktree: true, worktreeDir: ' ' }), { message: 'Invalid value for --worktree-dir: "". Expected a directory.' });
});

t.test("placed and named as Zero does: <root>/zero-worktree-<repo>-<10 hex of sha1(path)>/task-<UTC time>", async (t) => {
  t.equal(worktreesRoot({ ZERO_HOME: '/z' }, '/home/ada'), '/z/worktrees');
  t.equal(worktreesRoot({ XDG_STATE_HOME: '/state' }, '/home/ada'), '/state/zero/worktrees');
  t.equal(worktreesRoot({ XDG_STATE_HOME: 'relative' }, '/home/ada'), '/home/ada/.local/state/zero/worktrees');
  t.equal(worktreesRoot({}, '/home/ada'), '/home/ada/.local/state/zero/worktrees');
  const sha = createHash('sha1').update('/src/My Repo!').digest('hex').slice(0, 10);
  t.equal(repositoryFolder('/src/My Repo!'), `zero-worktree-my-repo-${sha}`);
  t.match(repositoryFolder('/src/...'), /^zero-worktree-repo-[0-9a-f]{10}$/);
  t.equal(defaultName(new Date(Date.UTC(2026, 5, 3, 7, 8, 9))), 'task-20260603-070809');
});

t.test('a new worktree at HEAD, detached; the same second again gets a name of its own; a name is reused', async (t) => {
  const repo = repository(t);
  const base = tempDir(t);
  const now = new Date(Date.UTC(2026, 5, 3, 7, 8, 9));
  const first = await prepareWorktree(join(repo), { baseDir: base }, {}, now);
  const folder = join(base, repositoryFolder(repo));
  t.same(first, { path: join(folder, 'task-20260603-070809'), repoRoot: repo, created: true, note: first.note });
  t.match(first.note, `This run works in a new git worktree, ${first.path}: ${repo} at ${git(repo, 'rev-parse', '--short', 'HEAD')}, detached. It is left there for you to inspect; \`git -C ${repo} worktree remove ${first.path}\` deletes it.`);
  t.equal(readFileSync(join(first.path, 'README.md'), 'utf8'), '# project\n');
  t.equal(git(first.path, 'rev-parse', 'HEAD'), git(repo, 'rev-parse', 'HEAD'));
  t.equal(git(first.path, 'rev-parse', '--abbrev-ref', 'HEAD'), 'HEAD', 'detached');
  const second = await prepareWorktree(repo, { baseDir: base }, {}, now);
  t.equal(second.path, join(folder, 'task-20260603-070809-2'), 'not the first run\'s worktree');
  const named = await prepareWorktree(repo, { name: 'fix-1', baseDir: base }, {}, now);
  writeFileSync(join(named.path, 'work.txt'), 'in progress\n');
  const again = await prepareWorktree(repo, { name: 'fix-1', baseDir: base }, {}, now);
  t.same([again.path, again.created], [named.path, false]);
  t.match(again.note, `This run works in the git worktree ${named.path} (reused: --worktree fix-1), of ${repo}. It is left there.`);
  t.ok(existsSync(join(again.path, 'work.txt')), 'its work is still there');
  t.same(worktrees(repo).sort(), [repo, first.path, second.path, named.path].sort());
});

t.test('from a subdirectory, the worktree is of the whole repository (its root is the run\'s cwd, as in Zero)', async (t) => {
  const repo = repository(t);
  mkdirSync(join(repo, 'src'));
  const tree = await prepareWorktree(join(repo, 'src'), { baseDir: 'trees' }, {});
  t.equal(tree.path, join(repo, 'src', 'trees', repositoryFolder(repo), tree.path.split('/').at(-1)!), '--worktree-dir resolves after cwd');
  t.ok(existsSync(join(tree.path, 'README.md')));
});

t.test('refused, with nothing made: no repository, no commit, a path in the way, a name of another repository', async (t) => {
  const plain = realpathSync(tempDir(t));
  const base = tempDir(t);
  await t.rejects(prepareWorktree(plain, { baseDir: base }, {}), { code: 'usage_error', message: `--worktree needs a git repository, and ${plain} is not in one.` });
  const empty = realpathSync(tempDir(t));
  git(empty, 'init', '-q');
  await t.rejects(prepareWorktree(empty, { baseDir: base }, {}), { code: 'usage_error', message: `--worktree needs a commit to check out, and the repository ${empty} has none yet.` });
  const repo = repository(t);
  const folder = join(base, repositoryFolder(repo));
  mkdirSync(join(folder, 'busy'), { recursive: true });
  writeFileSync(join(folder, 'busy', 'file.txt'), 'x');
  writeFileSync(join(folder, 'file'), 'x');
  await t.rejects(prepareWorktree(repo, { name: 'busy', baseDir: base }, {}), { message: `The worktree path exists and is not empty: ${join(folder, 'busy')}` });
  await t.rejects(prepareWorktree(repo, { name: 'file', baseDir: base }, {}), { message: `The worktree path exists and is not a directory: ${join(folder, 'file')}` });
  const other = repository(t, 'other');
  const theirs = await prepareWorktree(other, { name: 'shared', baseDir: base }, {});
  // the same name in our repository's folder, pointing at their repository: a link made by hand
  git(other, 'worktree', 'add', '-q', '--detach', join(folder, 'shared'), 'HEAD');
  await t.rejects(prepareWorktree(repo, { name: 'shared', baseDir: base }, {}), { message: `The worktree path exists for another git repository: ${join(folder, 'shared')}` });
  t.same(worktrees(repo), [repo], 'none made in our repository');
  t.ok(theirs.created);
});

t.test('movedInto: the run is in the worktree, --script stays where it was given; discard removes only an untouched new worktree', async (t) => {
  const settings = { cwd: '/src/app', script: 'script.jsonl', file: '/src/app/prompt.md' };
  const tree = { path: '/trees/t1', repoRoot: '/src/app', created: true, note: '' };
  t.same(movedInto(settings, tree), { cwd: '/trees/t1', script: '/src/app/script.jsonl', file: '/src/app/prompt.md' });
  t.equal(movedInto(settings, undefined), settings);
  const repo = repository(t);
  const base = tempDir(t);
  const untouched = await prepareWorktree(repo, { baseDir: base }, {});
  await discardWorktree(untouched);
  t.notOk(existsSync(untouched.path));
  const changed = await prepareWorktree(repo, { name: 'changed', baseDir: base }, {});
  writeFileSync(join(changed.path, 'new.txt'), 'keep me\n');
  await discardWorktree(changed);
  t.ok(existsSync(join(changed.path, 'new.txt')), 'git keeps a worktree with changes');
  const reused = await prepareWorktree(repo, { name: 'changed', baseDir: base }, {});
  await discardWorktree(reused);
  t.ok(existsSync(reused.path), 'a reused one is never removed');
});

t.test('zero exec --worktree: the run, its tools and its session work in the worktree; the repository is untouched', async (t) => {
  const repo = repository(t);
  const home = tempDir(t);
  const script = writeScript(tempDir(t), [
    { expect: { contains: ['Add notes'] }, toolCalls: [{ id: 'w1', name: 'write_file', args: { path: 'notes.txt', content: 'noted\n' } }] },
    { text: 'Added notes.txt.' },
  ]);
  const run = await zeroHere(['exec', '-o', 'stream-json', '--worktree', '--auto', 'high', '--provider', 'scripted', '--script', script, '-C', repo, 'Add notes'], { env: cleanEnv({ ZERO_HOME: home }) });
  t.equal(run.code, 0, run.stdout);
  const events = jsonLines(run.stdout);
  const cwd = String(events[0]!.cwd);
  t.match(cwd, join(home, 'worktrees', repositoryFolder(repo), 'task-'), 'run_start.cwd is the worktree, under $ZERO_HOME/worktrees');
  t.match(events.find((event) => event.type === 'warning' && /git worktree/.test(String(event.message))), { message: `This run works in a new git worktree, ${cwd}: ${repo} at ${git(repo, 'rev-parse', '--short', 'HEAD')}, detached. It is left there for you to inspect; \`git -C ${repo} worktree remove ${cwd}\` deletes it.` });
  t.equal(readFileSync(join(cwd, 'notes.txt'), 'utf8'), 'noted\n', 'the tool wrote in the worktree');
  t.notOk(existsSync(join(repo, 'notes.txt')), 'not in the repository');
  t.equal(git(repo, 'status', '--porcelain'), '');
  t.same(worktrees(repo), [repo, cwd], 'left for the user');
  const sessions = await zeroHere(['sessions', 'list', '-o', 'json', '--cwd', cwd], { env: cleanEnv({ ZERO_HOME: home }) });
  t.match(jsonLines(sessions.stdout), [{ cwd, title: 'Add notes' }], 'the session is recorded in the worktree');
});

t.test('zero exec --worktree outside a repository, or failing before it starts, leaves no worktree behind', async (t) => {
  const plain = realpathSync(tempDir(t));
  const outside = await zeroHere(['exec', '-o', 'stream-json', '--worktree', '--provider', 'scripted', '--script', 'none.jsonl', '-C', plain, 'hi']);
  t.equal(outside.code, 2);
  t.match(jsonLines(outside.stdout), [{ type: 'error', code: 'usage_error', message: `--worktree needs a git repository, and ${plain} is not in one.` }, { type: 'run_end', exitCode: 2 }]);
  const repo = repository(t);
  const home = tempDir(t);
  const failed = await zeroHere(['exec', '-o', 'stream-json', '--worktree', '--provider', 'scripted', '--script', join(repo, 'missing.jsonl'), '-C', repo, 'hi'], { env: cleanEnv({ ZERO_HOME: home }) });
  t.equal(failed.code, 2);
  t.match(jsonLines(failed.stdout)[0], { code: 'usage_error', message: /Cannot read the script/ });
  t.same(worktrees(repo), [repo], 'the worktree made for it was removed again');
});
