import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { sandboxSupport } from '../../lib/tools/bubblewrap.js';
import { childEnvironment, DEFAULT_ENV_POLICY } from '../../lib/tools/child_env.js';
import type { ShellPolicy } from '../../lib/tools/shell_sandbox.js';

const support = await sandboxSupport(process.env, process.cwd());

/** Where the sandbox tests run: the bwrap that works here, or why they are skipped (tap's `skip` option). */
export const bwrap = support.ok ? support.bwrap : undefined;
export const needsBubblewrap: string | false = support.ok ? false : `needs bubblewrap (Debian/Ubuntu package "bubblewrap", installed by .ci/run): ${support.reason}`;

/**
 * tap's coverage hooks add NODE_OPTIONS to every process a test spawns, and a node started with them writes into
 * the repository (read-only in the sandbox): a command that runs node under tap starts with this.
 */
export const WITHOUT_TAP = 'unset NODE_OPTIONS; ';

/** A policy for commands in `root` (and `more` writable roots), with the environment childEnvironment gives. */
export function policyFor(root: string, overrides: Partial<ShellPolicy> = {}, more: string[] = []): ShellPolicy {
  return { sandbox: 'workspace-write', network: false, roots: [root, ...more].map((dir) => realpathSync(dir)), env: childEnvironment(process.env, DEFAULT_ENV_POLICY), bwrap, ...overrides };
}

/** The pids of the machine's processes whose command line contains `marker` (a unique `sleep 1234.567` argument). */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/^\d+ \(.*\) [ZX] /s.test(stat)) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A marker no other test's process carries: a sleep duration unique to this process and call. */
let markers = 0;
export const uniqueSleep = () => `${1000 + (process.pid % 1000)}.${String(++markers).padStart(3, '0')}`;
