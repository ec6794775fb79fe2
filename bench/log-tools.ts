/**
 * Throughput of the log tools' chains (`zero redact`, `zero validate`, `zero stats`, as lib/pipeline.ts builds
 * them, in-process) against the bare split2 → JSON.parse → JSON.stringify chain, measured in one run on two
 * synthetic logs of the same number of events: the benchmark log (few long runs), one of thousands of short runs
 * (a day of CI runs concatenated) and the foreign log of issue 29 (bench/foreign-log.ts: long deltas, big tool
 * results and args, another program's session ids). Memory under a slow reader, render and start-up are in bench/memory.ts.
 *
 *   node dist/bench/log-tools.js [--events 200000] [--reps 5] [--short-runs 3333] [--logs benchmark,short,foreign]
 *
 * A report, never a test: nothing is asserted.
 */
import { Readable, Transform, Writable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import split2 from 'split2';
import { redactLogChain, statsChain, validateLogChain } from '../lib/log-chains.js';
import { foreignLog } from './foreign-log.js';
import { syntheticLog, type SyntheticLog } from './synthetic-log.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '200000' },
    reps: { type: 'string', default: '5' },
    'short-runs': { type: 'string', default: '3333' },
    logs: { type: 'string', default: 'benchmark,short,foreign' },
  },
});
const events = Number(args.events);
const made: Record<string, [string, () => SyntheticLog]> = {
  benchmark: ['the benchmark log', () => syntheticLog({ events, seed: 42 })],
  short: ['thousands of short runs', () => syntheticLog({ events, seed: 42, runs: Number(args['short-runs']) })],
  foreign: ['the foreign log (bench/foreign-log.ts)', () => foreignLog({ events, seed: 29 })],
};
const logs: [string, SyntheticLog][] = args.logs.split(',').map((key) => [made[key]![0], made[key]![1]()]);

const chunksOf = (bytes: Buffer) => Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, n) => bytes.subarray(n * 65536, (n + 1) * 65536));
const sink = () => new Writable({ objectMode: true, write: (_chunk, _encoding, callback) => callback() });
type Chain = () => (Transform | Duplex)[];
const chains: [string, Chain][] = [
  ['baseline (split2 → JSON.parse → JSON.stringify)', () => [split2(JSON.parse), new Transform({ writableObjectMode: true, transform: (value, _e, cb) => cb(null, `${JSON.stringify(value)}\n`) })]],
  ['zero redact (frame → redact)', () => [redactLogChain({ framing: 'lines' })]],
  ['zero validate (frame → report)', () => [validateLogChain({ framing: 'lines' }).chain]],
  ['zero stats (frame → stats)', () => [statsChain({ framing: 'lines' })]],
];

async function time(chunks: Buffer[], chain: Chain): Promise<number> {
  const start = performance.now();
  await pipeline([Readable.from(chunks, { objectMode: false }), ...chain(), sink()]);
  return performance.now() - start;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
console.log(`node ${process.version}; median of ${args.reps} interleaved runs after a warm-up; ratio = baseline time / chain time (above 1: faster than the bare chain)`);
for (const [name, log] of logs) {
  const chunks = chunksOf(log.bytes);
  const times = chains.map(() => [] as number[]);
  for (const [, chain] of chains) await time(chunks, chain);
  for (let rep = 0; rep < Number(args.reps); rep++) for (const [i, [, chain]] of chains.entries()) times[i]!.push(await time(chunks, chain));
  const mb = log.bytes.length / 1e6;
  console.log(`\n${name}: ${log.events.toLocaleString('en-US')} events in ${log.runs.toLocaleString('en-US')} runs, ${mb.toFixed(1)} MB`);
  const base = median(times[0]!);
  for (const [i, [chainName]] of chains.entries()) {
    const ms = median(times[i]!);
    console.log(`  ${chainName.padEnd(50)} ${ms.toFixed(0).padStart(6)} ms  ${(mb / (ms / 1000)).toFixed(1).padStart(6)} MB/s  ${(base / ms).toFixed(2)}×`);
  }
}
