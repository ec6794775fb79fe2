/**
 * Soak test: many scripted runs of bin/zero whose model calls the bash tool with a
 * command that leaves a background child and takes a few seconds, each ended at a
 * random moment: SIGINT, SIGTERM, SIGHUP, two signals 10 ms apart, the reader
 * closing stdout (EPIPE), SIGKILL, or not at all. Then, per run:
 *
 *   run_end  the last stdout line is the one and only run_end (not for EPIPE or SIGKILL)
 *   exit     the exit code is run_end's, and the signal's (141 for EPIPE)
 *   orphans  nothing the run started is still running 3 s after it ended (not for SIGKILL)
 *   session  events.jsonl parses, and holds exactly the events streamed (SIGKILL: at
 *            least every event read more than 100 ms before the kill)
 *   resume   `zero exec --resume ID` continues the session
 *
 * Then the FIFO scenarios (bench/soak-fifo.ts), `--fifo-rounds` times each: tools on a FIFO, a FIFO as -f,
 * --script and the stream-json input, with signals. Then the field scenarios (bench/soak-field.ts): a small
 * full disk under ZERO_HOME, and a flood of stdin while a permission_request waits.
 *
 * Prints a table and exits 1 if any check failed.
 *
 *   npm run soak -- [--runs 200] [--seed 1] [--concurrency 4] [--fifo-rounds 3]
 *
 * Slow (about 4 s per run, 4 at a time), so not part of `npm test`. Linux only (/proc).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prng } from './prng.js';
import { killAll, taggedProcesses } from './proc.js';
import { checkRun, CHECKS, type Check, type Verdicts } from './soak-checks.js';
import { soakFifos } from './soak-fifo.js';
import { soakField } from './soak-field.js';
import { ENDINGS, startRun, type Plan } from './soak-run.js';

function plans(runs: number, seed: number): Plan[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  return Array.from({ length: runs }, (_, index) => ({
    index,
    ending: pick(ENDINGS),
    delayMs: Math.round(random() * 3500),
    linesBeforeClose: 1 + Math.floor(random() * 3),
    second: pick(['SIGINT', 'SIGTERM', 'SIGHUP'] as const),
  }));
}

async function soakOne(plan: Plan, root: string): Promise<Verdicts> {
  const observation = await startRun(plan, root);
  const verdicts = await checkRun(observation);
  killAll(taggedProcesses(observation.tag)); // whatever a SIGKILLed run (or a failing one) left behind
  return verdicts;
}

/** Runs the plans, at most `concurrency` at a time. */
async function soak(all: Plan[], root: string, concurrency: number): Promise<Verdicts[]> {
  const results: Verdicts[] = [];
  let next = 0;
  const worker = async () => {
    for (let plan = all[next++]; plan; plan = all[next++]) {
      results[plan.index] = await soakOne(plan, root);
      if (process.stderr.isTTY) process.stderr.write(`\r${results.filter(Boolean).length}/${all.length} runs`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  if (process.stderr.isTTY) process.stderr.write('\n');
  return results;
}

function cell(results: Verdicts[], check: Check): string {
  const checked = results.filter((result) => !result.skipped.includes(check));
  if (checked.length === 0) return '-';
  return String(checked.filter((result) => result.failures[check] !== undefined).length);
}

function table(results: Verdicts[]): string {
  const header = ['ending', 'runs', 'late', ...CHECKS.map((check) => `${check} failed`)];
  const rows = ENDINGS.map((ending) => {
    const of = results.filter((result) => result.plan.ending === ending);
    return [ending, String(of.length), String(of.filter((result) => result.late).length), ...CHECKS.map((check) => cell(of, check))];
  });
  rows.push(['all', String(results.length), String(results.filter((result) => result.late).length), ...CHECKS.map((check) => cell(results, check))]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const format = (row: string[]) => row.map((value, column) => (column === 0 ? value.padEnd(widths[column]!) : value.padStart(widths[column]!))).join('  ');
  return [format(header), ...rows.map(format)].join('\n');
}

function failureLines(results: Verdicts[], max = 40): string[] {
  const lines = results.flatMap((result) =>
    Object.entries(result.failures).map(([check, detail]) => `#${result.plan.index} ${result.plan.ending}${result.plan.ending === 'double' ? `+${result.plan.second}` : ''} after ${result.plan.delayMs} ms: ${check}: ${detail}`),
  );
  return lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more`] : lines;
}

async function main() {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' }, seed: { type: 'string', default: '1' }, concurrency: { type: 'string', default: '4' }, 'fifo-rounds': { type: 'string', default: '3' } } });
  const runs = Number(values.runs);
  const seed = Number(values.seed);
  const concurrency = Math.min(4, Math.max(1, Number(values.concurrency)));
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) throw new Error('--runs must be a positive integer and --seed an integer');
  const root = mkdtempSync(join(tmpdir(), 'zero-soak-'));
  console.log(`zero soak: ${runs} runs, seed ${seed}, ${concurrency} at a time, in ${root}`);
  const started = performance.now();
  const results = await soak(plans(runs, seed), root, concurrency);
  console.log(`\n${table(results)}\n`);
  console.log(`late: the run had ended (or written run_end) before its signal, so it counts as completed. ${((performance.now() - started) / 1000).toFixed(0)} s in all.`);
  const fifos = await soakFifos(root, Number(values['fifo-rounds']));
  console.log(`FIFO scenarios: ${fifos.runs} runs, ${fifos.failures.length} failed.`);
  const field = await soakField(root);
  console.log(`Field scenarios (full disk, flood during a permission wait): ${field.runs} runs, ${field.failures.length} failed.${field.skipped.map((why) => ` Skipped: ${why}.`).join('')}`);
  const failures = [...failureLines(results), ...fifos.failures, ...field.failures];
  if (failures.length === 0) {
    rmSync(root, { recursive: true, force: true });
    console.log('Every check passed.');
    return;
  }
  console.log(`\nFailures (runs kept in ${root}):\n${failures.join('\n')}`);
  process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
