import { execFile, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';

// --worktree: the run works in a git worktree of the repository it was started in, placed and named as Zero does
// (internal/worktrees/worktrees.go), and left there for the user to inspect.

/** --worktree [NAME] and --worktree-dir DIR, checked. */
export type WorktreeRequest = { name?: string; baseDir?: string };

export type WorktreeFlags = { worktree?: string | boolean; worktreeDir?: string; fork?: string };

/** Zero's worktree names: a letter or digit, then up to 80 letters, digits, `.`, `_` or `-`. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/;

/** The request the flags make, or undefined without --worktree; a bad combination or name is a usage error, as in Zero. */
export function worktreeRequest(raw: WorktreeFlags): WorktreeRequest | undefined {
  if (raw.worktree === undefined || raw.worktree === false) {
    if (raw.worktreeDir !== undefined) throw new UsageError('--worktree-dir requires --worktree.');
    return undefined;
  }
  if (raw.fork !== undefined) throw new UsageError('--fork cannot be used with --worktree. Forked sessions must continue in the source session workspace.');
  const name = typeof raw.worktree === 'string' ? raw.worktree.trim() : undefined;
  if (name !== undefined && !NAME.test(name)) {
    throw new UsageError(`Invalid worktree name ${JSON.stringify(raw.worktree)}: use letters, numbers, dots, dashes, or underscores. (A word after --worktree is its name: give the prompt before it, or with --prompt.)`);
  }
  if (raw.worktreeDir !== undefined && raw.worktreeDir.trim() === '') throw new UsageError('Invalid value for --worktree-dir: "". Expected a directory.');
  return { ...(name ? { name } : {}), ...(raw.worktreeDir === undefined ? {} : { baseDir: raw.worktreeDir }) };
}

/**
 * Where worktrees go without --worktree-dir: `$ZERO_HOME/worktrees` (zero-stream keeps all its state there when it
 * is set), else Zero's `$XDG_STATE_HOME/zero/worktrees`, else `~/.local/state/zero/worktrees`.
 */
export function worktreesRoot(env: NodeJS.ProcessEnv, home: string = homedir()): string {
  if (env.ZERO_HOME) return join(resolve(env.ZERO_HOME), 'worktrees');
  if (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)) return join(env.XDG_STATE_HOME, 'zero', 'worktrees');
  return join(home, '.local', 'state', 'zero', 'worktrees');
}

/** Zero's folder for one repository's worktrees: its name, made safe, and 10 hex digits of the SHA-1 of its path. */
export function repositoryFolder(repoRoot: string): string {
  const hash = createHash('sha1').update(repoRoot).digest('hex').slice(0, 10);
  const base = basename(repoRoot).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[-._]+|[-._]+$/g, '');
  return `zero-worktree-${base || 'repo'}-${hash}`;
}

/** Zero's default name: `task-` and the UTC time to the second. */
export const defaultName = (now: Date) => `task-${now.toISOString().slice(0, 19).replace(/-|:/g, '').replace('T', '-')}`;

/** Names tried after a default name another run took in the same second. */
const DEFAULT_NAME_TRIES = 50;

/** git's output; running git is never our stdout's business (a hook's output included). Killed if zero exits first. */
function git(cwd: string, args: string[]): Promise<string> {
  let child: ChildProcess | undefined;
  const kill = () => child?.kill();
  process.once('exit', kill);
  return new Promise<string>((done, fail) => {
    child = execFile('git', args, { cwd, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      process.off('exit', kill);
      if (!error) return done(stdout.trim());
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fail(new UsageError('--worktree needs git, and git was not found on the PATH.'));
      fail(new Error(stderr.trim() || stdout.trim() || error.message));
    });
  });
}

export type Worktree = {
  path: string;
  repoRoot: string;
  /** This run made it (else it reused one named with --worktree NAME). */
  created: boolean;
  /** What the run's warning says of it: where it is, from what, and that it stays. */
  note: string;
};

/** What is at the target: nothing (or an empty folder) to create it in, a worktree to reuse, or something in the way. */
async function inspect(target: string): Promise<'free' | 'worktree'> {
  const found = await stat(target).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
  if (!found) return 'free';
  if (!found.isDirectory()) throw new UsageError(`The worktree path exists and is not a directory: ${target}`);
  const entries = await readdir(target);
  if (entries.includes('.git')) return 'worktree';
  if (entries.length) throw new UsageError(`The worktree path exists and is not empty: ${target}`);
  return 'free';
}

async function commonDir(dir: string): Promise<string> {
  return realpath(resolve(dir, await git(dir, ['rev-parse', '--git-common-dir'])));
}

/** The target for this run: the name asked for (reused if it is a worktree of this repository), or the first free default name. */
async function target(folder: string, repoRoot: string, request: WorktreeRequest, now: Date): Promise<{ path: string; reuse: boolean }> {
  if (request.name) {
    const path = join(folder, request.name);
    if ((await inspect(path)) === 'free') return { path, reuse: false };
    const [ours, theirs] = await Promise.all([commonDir(repoRoot), commonDir(path).catch(() => '')]);
    if (ours !== theirs) throw new UsageError(`The worktree path exists for another git repository: ${path}`);
    return { path, reuse: true };
  }
  const base = defaultName(now);
  for (let attempt = 1; attempt <= DEFAULT_NAME_TRIES; attempt++) {
    const path = join(folder, attempt === 1 ? base : `${base}-${attempt}`);
    if ((await inspect(path)) === 'free') return { path, reuse: false };
  }
  throw new UsageError(`No free worktree name in ${folder} for ${base}: pass --worktree NAME.`);
}

/**
 * The worktree a --worktree run works in: `git worktree add --detach` at HEAD of the repository `cwd` is in (Zero's
 * command), under `<root>/zero-worktree-<repo>-<hash>/<name>`. A `cwd` outside a git repository, a repository with no
 * commit, or a path in the way is a usage error.
 */
export async function prepareWorktree(cwd: string, request: WorktreeRequest, env: NodeJS.ProcessEnv, now = new Date()): Promise<Worktree> {
  const repoRoot = await git(cwd, ['rev-parse', '--show-toplevel']).catch((error) => {
    throw error instanceof UsageError ? error : new UsageError(`--worktree needs a git repository, and ${cwd} is not in one.`);
  });
  const folder = join(request.baseDir === undefined ? worktreesRoot(env) : resolve(cwd, request.baseDir), repositoryFolder(repoRoot));
  const { path, reuse } = await target(folder, repoRoot, request, now);
  const commit = await git(repoRoot, ['rev-parse', '--short', 'HEAD']).catch(() => '');
  if (reuse) return { path, repoRoot, created: false, note: `This run works in the git worktree ${path} (reused: --worktree ${request.name}), of ${repoRoot}. It is left there.` };
  if (!commit) throw new UsageError(`--worktree needs a commit to check out, and the repository ${repoRoot} has none yet.`);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await git(repoRoot, ['worktree', 'add', '--detach', path, 'HEAD']).catch((error) => {
    throw error instanceof UsageError ? error : new UsageError(`Cannot create the git worktree ${path}: ${(error as Error).message}`);
  });
  const note = `This run works in a new git worktree, ${path}: ${repoRoot} at ${commit}, detached. It is left there for you to inspect; \`git -C ${repoRoot} worktree remove ${path}\` deletes it.`;
  return { path, repoRoot, created: true, note };
}

/** A run's settings in its worktree: the worktree is its cwd, and --script keeps the directory it was given in (--file and --add-dir were resolved already). */
export function movedInto<Settings extends { cwd: string; script?: string }>(settings: Settings, worktree: Worktree | undefined): Settings {
  if (!worktree) return settings;
  return { ...settings, cwd: worktree.path, ...(settings.script === undefined ? {} : { script: resolve(settings.cwd, settings.script) }) };
}

/** A worktree this run made, removed again because the run never started (a usage or provider error came first); git keeps one that was changed. */
export async function discardWorktree(worktree: Worktree | undefined): Promise<void> {
  if (worktree?.created) await git(worktree.repoRoot, ['worktree', 'remove', worktree.path]).catch(() => undefined);
}
