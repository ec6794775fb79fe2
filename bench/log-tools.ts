/**
 * Throughput of `zero redact` and `zero validate` (their chains, in-process)
 * against the bare split2 → JSON.parse → JSON.stringify chain, on the same
 * synthetic log, measured in one run; then `zero redact` streaming a large log
 * (--gb, default 1) to a slow reader, sampling RSS to show memory stays flat.
 *
 *   node dist/bench/log-tools.js [--events 200000] [--reps 5] [--gb 1]
 *
 * A report, never a test: nothing is asserted.
 */
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import split2 from 'split2';
import { frame } from '../transforms/frame.js';
import { redactLog } from '../lib/logs/redact.js';
import { logReport } from '../lib/logs/validate.js';
import { syntheticLog } from './synthetic-log.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '200000' },
    reps: { type: 'string', default: '5' },
    gb: { type: 'string', default: '1' },
  },
});
const log = syntheticLog({ events: Number(args.events), seed: 42 });
const chunks: Buffer[] = [];
for (let at = 0; at < log.bytes.length; at += 65536) chunks.push(log.bytes.subarray(at, at + 65536));

const sink = () => new Writable({ objectMode: true, write: (_chunk, _encoding, callback) => callback() });
type Chain = () => Transform[];
const chains: [string, Chain][] = [
  ['baseline (split2 → JSON.parse → JSON.stringify)', () => [split2(JSON.parse), new Transform({ writableObjectMode: true, transform: (value, _e, cb) => cb(null, `${JSON.stringify(value)}\n`) })]],
  ['zero redact (frame → redactLog)', () => [frame('lines'), redactLog()]],
  ['zero validate (frame → logReport)', () => [frame('lines'), logReport().stream]],
];

async function time(chain: Chain): Promise<number> {
  const start = performance.now();
  await pipeline([Readable.from(chunks, { objectMode: false }), ...chain(), sink()]);
  return performance.now() - start;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const times = chains.map(() => [] as number[]);
for (const [, chain] of chains) await time(chain);
for (let rep = 0; rep < Number(args.reps); rep++) for (const [i, [, chain]] of chains.entries()) times[i]!.push(await time(chain));

const mb = log.bytes.length / 1e6;
console.log(`node ${process.version}; ${log.events.toLocaleString('en-US')} events, ${mb.toFixed(1)} MB; median of ${args.reps} interleaved runs after a warm-up\n`);
const base = median(times[0]!);
for (const [i, [name]] of chains.entries()) {
  const ms = median(times[i]!);
  console.log(`${name.padEnd(50)} ${ms.toFixed(0).padStart(6)} ms  ${(mb / (ms / 1000)).toFixed(1).padStart(6)} MB/s  ${(base / ms).toFixed(2)}× baseline`);
}

// A large log through zero redact's chain to a slow reader: the log is generated as it is read, never held whole.
const targetBytes = Number(args.gb) * 1e9;
let produced = 0;
const endless = new Readable({
  read() {
    if (produced >= targetBytes) return void this.push(null);
    produced += log.bytes.length;
    this.push(log.bytes);
  },
});
let written = 0;
const rss: number[] = [];
const slowReader = new Writable({
  highWaterMark: 64 * 1024,
  write(chunk: Buffer, _encoding, callback) {
    written += chunk.length;
    // About 1 ms of "reading" per 256 KiB: slower than the chain, so backpressure has to hold.
    if (written % (256 * 1024) < chunk.length) setTimeout(callback, 1);
    else callback();
  },
});
const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 250);
const started = performance.now();
await pipeline(endless, frame('lines'), redactLog(), slowReader);
clearInterval(sampler);
const seconds = (performance.now() - started) / 1000;
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const quarter = Math.floor(rss.length / 4);
console.log(
  `\nzero redact, ${(produced / 1e9).toFixed(2)} GB to a slow reader: ${seconds.toFixed(0)} s, ${(produced / 1e6 / seconds).toFixed(1)} MB/s; ` +
    `RSS ${mib(Math.min(...rss))}–${mib(Math.max(...rss))} MiB (first quarter max ${mib(Math.max(...rss.slice(0, quarter)))}, last quarter max ${mib(Math.max(...rss.slice(-quarter)))})`,
);
