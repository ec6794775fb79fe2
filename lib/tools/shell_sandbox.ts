import { accessSync, constants, existsSync, lstatSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { childEnvironment } from './child_env.js';
import { PROTECTED_NAMES } from './permissions.js';
import { isInside } from './sandbox.js';

/**
 * How `bash` runs a command: the argv and the environment, for each sandbox mode. `workspace-write` and
 * `read-only` run it under bubblewrap (bwrap): the root file system read-only, a private /tmp, a fresh /proc in
 * a pid namespace of its own (whatever the command leaves behind ends with it), no network, no capabilities.
 */

export const SANDBOX_MODES = ['workspace-write', 'read-only', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export type ShellPolicy = {
  /** The sandbox in force: `off` also when bubblewrap cannot start here. */
  sandbox: SandboxMode;
  /** Whether a sandboxed command may reach the network (--sandbox-network); `off` always may. */
  network: boolean;
  /** The working directory and the --add-dir directories, absolute and real: writable in `workspace-write`. */
  roots: string[];
  /** The child's environment (childEnvironment: one place decides it). */
  env: Record<string, string>;
  /** The bwrap executable, when the sandbox is on. */
  bwrap?: string;
  /** Files the command must not read, each replaced by an empty one (the user config file, which may hold keys). */
  hidden?: string[];
};

/** The policy of a toolbox built without one: no sandbox, and the environment without credentials. */
export function unconfinedPolicy(cwd: string): ShellPolicy {
  return { sandbox: 'off', network: true, roots: [cwd], env: childEnvironment(process.env) };
}


/**
 * `infoFd`: where bwrap writes `{"child-pid": N, …}`, N the pid of the sandbox's init, before the sandbox runs. That
 * init leaves bwrap's group and ignores SIGTERM; if bwrap ends before the init has set its parent-death signal, only
 * its pid finds it.
 */
export type ShellInvocation = { file: string; args: string[]; env: Record<string, string>; infoFd?: number };

const INFO_FD = 3;

/** `exec 2>&1` on the command's own first line merges stderr into stdout in the order written without shifting bash's line numbers. */
const bashArgs = (command: string) => ['bash', '-c', `exec 2>&1; ${command}`];

/** What to spawn (with `cwd`, detached) to run `command` under `policy`. */
export function shellInvocation(command: string, cwd: string, policy: ShellPolicy): ShellInvocation {
  const [file, ...args] = bashArgs(command);
  if (policy.sandbox === 'off') return { file, args, env: policy.env };
  // a sandbox asked for and not there is a refusal, never a command run unconfined
  if (!policy.bwrap) throw new Error(`The ${policy.sandbox} sandbox cannot run here (bubblewrap is missing), so the command was not run.`);
  // the sandbox's /tmp is its own: a working directory reached through a link there must be named by its real path
  const sandbox = [...bwrapArgs(realOrAsGiven(cwd), policy), '--info-fd', String(INFO_FD)];
  return { file: policy.bwrap, args: [...sandbox, '--', file, ...args], env: sandboxedEnv(policy), infoFd: INFO_FD };
}

/**
 * The top-level `.git`, `.zero` and `.agents` missing from the writable roots (workspace-write), in which the
 * command could make them (a `git init` with a hook or an fsmonitor, a config of zero's: code that runs later,
 * outside any sandbox). Each gets an empty read-only folder for the call, as Zero does; bwrap makes it on the
 * disk to mount over, and it stays there, empty, as with Zero: removed after the call, it would take the mount away
 * from another zero's sandbox in the same workspace that found it and bound it read-only (a command there could
 * then make the real one). git takes an empty `.git` for no repository and looks further up. A dangling link
 * there is left (bwrap cannot mount over it), as is a root zero cannot write.
 */
export function missingProtected(policy: ShellPolicy): string[] {
  if (policy.sandbox !== 'workspace-write') return [];
  const missing: string[] = [];
  for (const root of new Set(policy.roots)) {
    if (!isWritable(root)) continue;
    for (const name of PROTECTED_NAMES) if (!lexists(join(root, name))) missing.push(join(root, name));
  }
  return missing;
}

function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function realOrAsGiven(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** TMPDIR must name a place the command can write: the private /tmp, unless it already is in a writable root. */
function sandboxedEnv(policy: ShellPolicy): Record<string, string> {
  const env: Record<string, string> = { ...policy.env, ZERO_SANDBOX: policy.sandbox };
  const tmpdir = env.TMPDIR;
  const writable = policy.sandbox === 'workspace-write' ? policy.roots : [];
  if (tmpdir !== undefined && !writable.some((root) => isInside(root, tmpdir))) env.TMPDIR = '/tmp';
  return env;
}

/** Shallow roots first, so a root inside another is bound over it, not hidden by it. */
const byDepth = (roots: string[]) => [...new Set(roots)].sort((a, b) => a.split(sep).length - b.split(sep).length);

/** Everything bwrap needs before `--` for `policy`, the command then running in `cwd`. */
export function bwrapArgs(cwd: string, policy: ShellPolicy, missing = missingProtected(policy)): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // Sockets of host services (docker, dbus, agents under /run/user) are reachable through a read-only mount: hidden.
  for (const run of ['/run', '/var/run']) if (isRealDirectory(run)) args.push('--tmpfs', run);
  if (policy.network) args.push('--ro-bind-try', '/run/systemd/resolve', '/run/systemd/resolve');
  const bind = policy.sandbox === 'workspace-write' ? '--bind' : '--ro-bind';
  for (const root of byDepth(policy.roots)) {
    args.push(bind, root, root);
    for (const name of PROTECTED_NAMES) {
      const path = join(root, name);
      if (existsSync(path)) args.push('--ro-bind', path, path);
      else if (missing.includes(path)) args.push('--perms', '555', '--tmpfs', path, '--remount-ro', path);
    }
  }
  for (const file of policy.hidden ?? []) if (existsSync(file)) args.push('--ro-bind', '/dev/null', file);
  // A user namespace of its own in which no other can be made: `unshare`, and the mounts it would allow, fail.
  args.push('--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  if (!policy.network) args.push('--unshare-net');
  args.push('--chdir', cwd);
  return args;
}

function isRealDirectory(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
