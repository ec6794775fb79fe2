/**
 * The shell sandbox's cost (issue 24): `calls` runs of `bash -c true` through the bash tool in the
 * workspace-write sandbox and unconfined, paired (one of each, alternating which goes first, so a busy machine
 * weighs on both alike), and the added time per call: the median of the pairs' differences, with the means.
 * Goal: at most 25 ms a call. Also the once-per-run check that bubblewrap can start (lib/tools/bubblewrap.ts),
 * which every run that may call bash pays once.
 *
 *   node dist/bench/sandbox.js [--calls 50]
 *
 * A report, never a test: nothing is asserted. Without a working bubblewrap it says so and measures nothing.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createBash } from '../lib/tools/bash.js';
import { sandboxSupport } from '../lib/tools/bubblewrap.js';
import { childEnvironment } from '../lib/tools/child_env.js';
import type { ShellPolicy } from '../lib/tools/shell_sandbox.js';

const { values: args } = parseArgs({ options: { calls: { type: 'string', default: process.env.BENCH_CALLS ?? '50' } } });
const calls = Math.max(1, Number(args.calls));
const GOAL_MS = 25;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

const checkStarted = performance.now();
const support = await sandboxSupport(process.env, process.cwd());
const checkMs = performance.now() - checkStarted;
console.log('sandbox: the shell sandbox (bubblewrap) against unconfined bash, per call of `bash -c true`');
if (!support.ok) {
  console.log(`  not measured: ${support.reason}`);
  process.exit(0);
}
console.log(`  bubblewrap check, once per run: ${checkMs.toFixed(1)} ms (${support.bwrap})`);

const work = realpathSync(mkdtempSync(join(tmpdir(), 'zero-bench-sandbox-')));
const env = childEnvironment(process.env);
const policy = (sandbox: ShellPolicy['sandbox']): ShellPolicy => ({ sandbox, network: sandbox === 'off', roots: [work], env, bwrap: support.bwrap });
const tools = { sandboxed: createBash(policy('workspace-write')), off: createBash(policy('off')) };
const context = { cwd: work, signal: new AbortController().signal };

async function once(which: keyof typeof tools): Promise<number> {
  const started = performance.now();
  const { output } = await tools[which].run({ command: 'true' }, context);
  if (output !== 'exit code 0') throw new Error(`${which}: ${output}`);
  return performance.now() - started;
}

try {
  await once('sandboxed');
  await once('off');
  const sandboxed: number[] = [];
  const off: number[] = [];
  for (let call = 0; call < calls; call++) {
    const order = call % 2 === 0 ? (['sandboxed', 'off'] as const) : (['off', 'sandboxed'] as const);
    for (const which of order) (which === 'off' ? off : sandboxed).push(await once(which));
  }
  const added = sandboxed.map((ms, index) => ms - off[index]!);
  console.log(`  ${calls} calls each, paired: unconfined median ${median(off).toFixed(1)} ms (mean ${mean(off).toFixed(1)}), sandboxed median ${median(sandboxed).toFixed(1)} ms (mean ${mean(sandboxed).toFixed(1)})`);
  const perCall = median(added);
  console.log(`  added per call: median ${perCall.toFixed(1)} ms, mean ${mean(added).toFixed(1)} ms — goal ≤ ${GOAL_MS} ms: ${perCall <= GOAL_MS ? 'met' : 'NOT met'}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
