import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { bwrapArgs, type ShellPolicy } from './shell_sandbox.js';
import { isInside } from './sandbox.js';

/** Whether bubblewrap can sandbox commands here, and if not, why. */
export type SandboxSupport = { ok: true; bwrap: string } | { ok: false; reason: string };

/** How long the check may take before the sandbox is taken as unable to start (a loaded machine starts bwrap in ms). */
const PROBE_TIMEOUT_MS = 10_000;

export const INSTALL_HINT =
  'Install bubblewrap 0.8 or later (apt install bubblewrap, dnf install bubblewrap), or, where it is installed but cannot create namespaces, allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later kernel.apparmor_restrict_unprivileged_userns=0).';

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * `ZERO_BWRAP` when set (a missing file then means no sandbox: tests use it to act as a machine without
 * bubblewrap), else `bwrap` on PATH. PATH entries that are relative or inside the working directory are
 * skipped: a repository must not bring the program that is meant to confine it.
 */
export function findBubblewrap(env: NodeJS.ProcessEnv, cwd: string): string | { missing: string } {
  const given = env.ZERO_BWRAP?.trim();
  if (given) return isExecutableFile(given) ? given : { missing: `ZERO_BWRAP names ${given}, which is not an executable file` };
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!isAbsolute(dir) || isInside(cwd, dir)) continue;
    const candidate = join(dir, 'bwrap');
    if (isExecutableFile(candidate)) return candidate;
  }
  return { missing: 'bwrap (bubblewrap) is not on PATH' };
}

/** The policy the check runs under: every namespace a command gets, nothing writable. */
const PROBE_POLICY: ShellPolicy = { sandbox: 'read-only', network: false, roots: [], env: {} };

/** Runs `bwrap … -- true` once: it succeeds only where bubblewrap can create the namespaces a command gets. */
function probe(bwrap: string): Promise<SandboxSupport> {
  return new Promise((resolve) => {
    const child = spawn(bwrap, [...bwrapArgs('/', PROBE_POLICY), '--', 'true'], { stdio: ['ignore', 'ignore', 'pipe'], env: {} });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk.slice(0, 2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, reason: `${bwrap} could not be run: ${error.message}` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ ok: true, bwrap });
      const said = stderr.trim().split('\n')[0] || (signal ? `killed by ${signal} after ${PROBE_TIMEOUT_MS / 1000} s` : `exit code ${code}`);
      resolve({ ok: false, reason: `${bwrap} cannot start a sandbox here: ${said}` });
    });
  });
}

/** One check per bwrap per process (a run is one process): every later run of a command reuses its answer. */
const checked = new Map<string, Promise<SandboxSupport>>();

/** Whether commands can be sandboxed: bubblewrap found, and started once with every namespace a command gets. */
export function sandboxSupport(env: NodeJS.ProcessEnv, cwd: string): Promise<SandboxSupport> {
  const found = findBubblewrap(env, cwd);
  if (typeof found !== 'string') return Promise.resolve({ ok: false, reason: found.missing });
  let support = checked.get(found);
  if (!support) checked.set(found, (support = probe(found)));
  return support;
}
