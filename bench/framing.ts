/**
 * Line framing on long lines (issue 13): one line of 2/4/8/16 MB through the
 * split stage (time per size, and the ratio per doubling: 2.0 is linear, 4.0
 * quadratic; goal ≤ 2.2), the log tools' frame stage on 8 MB without a newline,
 * a 100 MB line refused at the 16 MiB limit (goals: < 1 s, and a peak RSS above
 * the process's start < 2 × the limit), and endless `/dev/zero`-like input on
 * the exec input chain (lib/pipeline.ts inputChain), refused as quickly.
 *
 *   node dist/bench/framing.js [--reps 9] [--chunk-kib 64]
 *
 * Each case runs in a child process of its own, so one case's heap and RSS do
 * not pollute the next; input is made lazily, a fresh chunk at a time, as a
 * pipe would give it. MB = 10^6 bytes. A report, never a test: nothing is asserted.
 */
import { fork } from 'node:child_process';
import { cpus } from 'node:os';
import { Readable, Writable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEFAULT_MAX_LINE_BYTES } from '../lib/protocol/lines.js';
import { inputChain } from '../lib/pipeline.js';
import { frame } from '../transforms/frame.js';
import { split } from '../transforms/split.js';

const { values: args } = parseArgs({
  options: {
    reps: { type: 'string', default: process.env.BENCH_REPS ?? '9' },
    'chunk-kib': { type: 'string', default: '64' },
    case: { type: 'string' },
  },
});
const reps = Math.max(1, Number(args.reps));
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const chunkBytes = Number(args['chunk-kib']) * 1024;
const MB = 1e6;

/** `bytes` bytes of `fill` (endless for Infinity), a fresh chunk each time one is wanted, then `end`. */
function input(bytes: number, { fill = 'x', end = '' } = {}): Readable {
  function* chunks(): Generator<Buffer> {
    for (let left = bytes; left > 0; left -= chunkBytes) yield Buffer.alloc(Math.min(chunkBytes, left), fill);
    if (end) yield Buffer.from(end);
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: chunkBytes });
}

const drain = () => new Writable({ objectMode: true, write: (_item, _encoding, callback) => callback() });

type Timing = { ms: number; failure?: string };
type Result = Timing & { rssStart: number; rssPeak: number };

/** Milliseconds from the first byte to the end of the stage's output, or to its failure. */
async function timed(source: Readable, stage: Duplex): Promise<Timing> {
  const started = performance.now();
  try {
    await pipeline(source, stage, drain());
    return { ms: performance.now() - started };
  } catch (error) {
    return { ms: performance.now() - started, failure: (error as Error).message };
  }
}

/** The cases, each run by a child of its own. */
const cases: Record<string, () => Promise<Timing>> = {
  ...Object.fromEntries(
    [2, 4, 8, 16].map((mb) => [`split: one line of ${mb} MB`, () => timed(input(mb * MB, { end: '\n' }), split())]),
  ),
  ...Object.fromEntries(
    (['lines', 'auto', 'values'] as const).map((framing) => [`frame ${framing}: 8 MB without a newline`, () => timed(input(8 * MB), frame(framing))]),
  ),
  'split: a 100 MB line, refused': () => timed(input(100 * MB), split()),
  'inputChain: endless zeros, refused': () => timed(input(Infinity, { fill: '\0' }), inputChain()),
};

/** The peak RSS is the first run's (the process's high-water mark cannot be reset); the time is the best run's, each after a full collection. */
async function runCase(name: string): Promise<Result> {
  gc();
  const rssStart = process.memoryUsage().rss;
  let best = await cases[name]!();
  const rssPeak = process.resourceUsage().maxRSS * 1024;
  for (let rep = 1; rep < reps; rep++) {
    gc();
    const result = await cases[name]!();
    if (result.ms < best.ms) best = result;
  }
  return { ...best, rssStart, rssPeak };
}

function inChild(name: string): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--case', name, '--reps', String(reps), '--chunk-kib', String(args['chunk-kib'])]);
    child.once('message', (result) => resolve(result as Result));
    child.once('error', reject);
    child.once('exit', (code) => code === 0 || reject(new Error(`${name}: the child exited with ${code}`)));
  });
}

if (args.case) {
  process.send!(await runCase(args.case));
} else {
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim()}), ${process.platform}/${process.arch}`);
  console.log(
    `chunks of ${chunkBytes / 1024} KiB; each case in its own process: best time of ${reps}, peak RSS of the first run; ` +
      `limit ${DEFAULT_MAX_LINE_BYTES} bytes (${mib(DEFAULT_MAX_LINE_BYTES)} MiB)\n`,
  );
  const rows: string[][] = [['', 'ms', '× per doubling', 'RSS start MiB', 'peak MiB', 'peak − start MiB', 'outcome']];
  const lineTimes: number[] = [];
  for (const name of Object.keys(cases)) {
    const result = await inChild(name);
    const oneLine = name.startsWith('split: one line of');
    const doubling = oneLine && lineTimes.length > 0 ? `${(result.ms / lineTimes.at(-1)!).toFixed(2)}×` : '';
    if (oneLine) lineTimes.push(result.ms);
    const outcome = result.failure ? `refused: ${result.failure.replace(/ \(--max-line-bytes\)\.$/, '')}` : 'framed';
    rows.push([name, result.ms.toFixed(1), doubling, mib(result.rssStart), mib(result.rssPeak), mib(result.rssPeak - result.rssStart), outcome]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log(rows.map((row) => row.map((cell, column) => (column === 0 || column === 6 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')).join('\n'));
  const perDoubling = (lineTimes.at(-1)! / lineTimes[0]!) ** (1 / (lineTimes.length - 1));
  console.log(`\nsplit, one line of 2 → 16 MB: ${perDoubling.toFixed(2)}× per doubling on average (2.00× is linear, 4.00× quadratic)`);
  console.log(`goals: ≤ 2.2× per doubling; the 100 MB line refused in < 1 s with peak − start < ${mib(2 * DEFAULT_MAX_LINE_BYTES)} MiB (2 × the limit)`);
}
