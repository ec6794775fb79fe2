/**
 * Throughput of the output chain (split → parse → validate(output) → redact →
 * stamp → serialize) against a bare split2 → JSON.parse → JSON.stringify
 * baseline, over the same synthetic stream-json log (or the foreign log of bench/foreign-log.ts), in one process.
 *
 *   node dist/bench/output-chain.js [--events 200000] [--reps 9] [--chunk-kib 64] [--log synthetic|foreign] [--seed 42 | 29, the log's own] [--stages] [--credential] [--against DIR] [--live]
 *
 * --credential: the redact stage knows a credential in use, as in every `zero exec` (the key it calls the provider with).
 * --against DIR: another build's dist directory (main's, say) runs its own chain in the same reps, interleaved: two
 *   builds compared in one process, by wall and CPU time.
 * --stages: the fused chain without its redact step too, in the same reps; and each stage's step alone over what the
 *   stages before it made, CPU time, beside the bare chain's same work.
 * --live: the chain `zero exec` runs (lib/pipeline.ts outputChain: guard → redact → stamp → serialize, no session)
 *   over the log's events as the agent hands them over (objects without schemaVersion and runId), against
 *   JSON.stringify of the same objects, and of them stamped (the bytes the chain writes); --stages does not apply.
 *
 * Env: BENCH_EVENTS, BENCH_REPS. A report, never a test: nothing is asserted.
 */
import { cpus } from 'node:os';
import { Readable, Transform, Writable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { StringDecoder } from 'node:string_decoder';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import split2 from 'split2';
import { parse } from '../transforms/parse.js';
import { redact } from '../transforms/redact.js';
import { serialize } from '../transforms/serialize.js';
import { split } from '../transforms/split.js';
import { stamp } from '../transforms/stamp.js';
import { validate } from '../transforms/validate.js';
import { foreignLog } from './foreign-log.js';
import { stampEvent } from '../lib/protocol/stamp.js';
import { newRunId } from '../lib/protocol/ids.js';
import type { Event } from '../lib/protocol/types.js';
import { syntheticLog } from './synthetic-log.js';
import type { serializeStep } from '../lib/output/serializer.js';
import type { createLineFramer } from '../lib/protocol/lines.js';
import type { parseStep } from '../lib/protocol/parse.js';
import type { validateStep } from '../lib/protocol/schema-version.js';
import type { stampStep } from '../lib/protocol/stamp.js';
import type { redactStep } from '../lib/redaction/events.js';
import type { checkEvent, guardStep } from '../lib/output/event-guard.js';
import type { applyStep, composeSteps, concatBytes, stepStream } from '../lib/streams.js';
import type { outputChain as execOutputChain } from '../lib/pipeline.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: process.env.BENCH_EVENTS ?? '200000' },
    reps: { type: 'string', default: process.env.BENCH_REPS ?? '9' },
    'chunk-kib': { type: 'string', default: '64' },
    seed: { type: 'string' },
    log: { type: 'string', default: 'synthetic' },
    stages: { type: 'boolean', default: false },
    credential: { type: 'boolean', default: false },
    against: { type: 'string' },
    live: { type: 'boolean', default: false },
  },
});
const reps = Math.max(1, Number(args.reps));
const chunkBytes = Number(args['chunk-kib']) * 1024;

// A full collection before each run, so each heap peak is that run's own.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const foreign = args.log === 'foreign';
const log = (foreign ? foreignLog : syntheticLog)({ events: Number(args.events), seed: Number(args.seed ?? (foreign ? 29 : 42)) });
const chunks: Buffer[] = [];
for (let at = 0; at < log.bytes.length; at += chunkBytes) chunks.push(log.bytes.subarray(at, at + chunkBytes));

/** What the fused chains are built of, from this build or another one's dist directory (--against). */
type Build = {
  createLineFramer: typeof createLineFramer;
  parseStep: typeof parseStep;
  validateStep: typeof validateStep;
  guardStep: typeof guardStep;
  redactStep: typeof redactStep;
  stampStep: typeof stampStep;
  serializeStep: typeof serializeStep;
  composeSteps: typeof composeSteps;
  stepStream: typeof stepStream;
  applyStep: typeof applyStep;
  concatBytes: typeof concatBytes;
  checkEvent: typeof checkEvent;
  outputChain: typeof execOutputChain;
};
const MODULES = ['protocol/lines', 'protocol/parse', 'protocol/schema-version', 'output/event-guard', 'redaction/events', 'protocol/stamp', 'output/serializer', 'streams', 'pipeline'];
async function loadBuild(lib: URL): Promise<Build> {
  const modules = await Promise.all(MODULES.map((name) => import(new URL(`${name}.js`, lib).href) as Promise<object>));
  return Object.assign({}, ...modules) as Build;
}
const here = await loadBuild(new URL('../lib/', import.meta.url));
const other = args.against ? await loadBuild(new URL('lib/', pathToFileURL(`${resolve(args.against)}/`))) : undefined;

/** The log's events as the agent hands them to the output chain: no schemaVersion, no runId (stamp adds them). */
const agentEvents = args.live
  ? log.bytes
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      // through JSON again, so each is an object as JSON.parse makes them (a rest copy is slower for JSON.stringify)
      .map((line) => {
        const { schemaVersion: _version, runId: _runId, ...event } = JSON.parse(line) as Record<string, unknown>;
        return JSON.parse(JSON.stringify(event)) as object;
      })
  : [];
/**
 * The same events as exec writes them, with schemaVersion and runId (again as JSON.parse makes them): a baseline that
 * writes the chain's bytes. The plain one writes fewer (58 of 112 bytes a line on the synthetic log, 288 of 342 on
 * the foreign one), and its JSON.stringify costs that much less.
 */
const liveRunId = newRunId();
const stampedAgentEvents = args.live ? agentEvents.map((event) => JSON.parse(JSON.stringify(stampEvent(event as Event, liveRunId))) as object) : [];

type Sink = Writable & { chunks: number; bytes: number; redacted: number; heapPeak: number };

/** Discards what it gets; counts chunks and bytes, samples the heap, optionally counts `[REDACTED]`. */
function nullSink(countRedacted = false): Sink {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sink.chunks += 1;
      sink.bytes += chunk.length;
      if (countRedacted) for (let at = chunk.indexOf('[REDACTED]'); at >= 0; at = chunk.indexOf('[REDACTED]', at + 1)) sink.redacted += 1;
      if ((sink.chunks & 1023) === 0) sink.heapPeak = Math.max(sink.heapPeak, process.memoryUsage().heapUsed);
      callback();
    },
  }) as Sink;
  return Object.assign(sink, { chunks: 0, bytes: 0, redacted: 0, heapPeak: 0 });
}

type Stages = () => Duplex[];
/** The stages one stream each, as a program that pipes them would. */
// made up, and in two parts: the test of this repository's sources finds no credential in it
const redactOptions = args.credential ? { secrets: [['sk-proj-', 'Zq8nR2vT6yU1iO5pL9kJ3hG7fD4sA0mNbVcXzQw'].join('')] } : {};
const outputStages: Stages = () => [split({ label: 'bench log' }), parse(), validate('output'), redact(redactOptions), stamp(), serialize('stream-json')];
/** The same stages' steps fused in one stream, as lib/pipeline.ts builds its chains; --live: exec's own chain. */
const fusedChain =
  (build: Build, withRedaction = true): Stages =>
  () =>
    args.live
      ? [build.outputChain(redactOptions)]
      : [
          build.stepStream(
            build.composeSteps([
              build.createLineFramer({ label: 'bench log' }),
              build.parseStep(),
              build.validateStep('output'),
              ...(withRedaction ? [build.guardStep('outputChain', build.redactStep(redactOptions))] : []),
              build.stampStep(),
              build.serializeStep('stream-json', process.stderr),
            ]),
            { writableObjectMode: false, readableObjectMode: false },
          ),
        ];
const outputChain = fusedChain(here);
const stringify = () => new Transform({ writableObjectMode: true, transform: (value: unknown, _encoding, callback) => callback(null, `${JSON.stringify(value)}\n`) });
const baseline: Stages = () => (args.live ? [stringify()] : [split2(JSON.parse), stringify()]);

type Result = { ms: number; cpuMs: number; heapPeak: number; sink: Sink };

async function runOnce(stages: Stages, countRedacted = false, events = agentEvents): Promise<Result> {
  gc();
  const sink = nullSink(countRedacted);
  sink.heapPeak = process.memoryUsage().heapUsed;
  const source = args.live ? Readable.from(events) : Readable.from(chunks, { objectMode: false });
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await pipeline([source, ...stages(), sink]);
  const cpu = process.cpuUsage(cpuStart);
  const ms = performance.now() - start;
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, heapPeak: Math.max(sink.heapPeak, process.memoryUsage().heapUsed), sink };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

type Row = { name: string; ms: number; cpuMs: number; heapPeak: number; times: number[]; cpuTimes: number[] };

/** One warm-up each, then `reps` runs interleaved across the cases; the median times (wall and CPU), each rep's, the largest heap peak. */
async function measure(cases: Array<{ name: string; stages: Stages; events?: object[] }>): Promise<Row[]> {
  for (const c of cases) await runOnce(c.stages, false, c.events);
  const times = cases.map(() => [] as number[]);
  const cpuTimes = cases.map(() => [] as number[]);
  const heaps = cases.map(() => 0);
  for (let rep = 0; rep < reps; rep++) {
    for (const [i, c] of cases.entries()) {
      const { ms, cpuMs, heapPeak } = await runOnce(c.stages, false, c.events);
      times[i].push(ms);
      cpuTimes[i].push(cpuMs);
      heaps[i] = Math.max(heaps[i], heapPeak);
    }
  }
  return cases.map((c, i) => ({ name: c.name, ms: median(times[i]), cpuMs: median(cpuTimes[i]), heapPeak: heaps[i], times: times[i], cpuTimes: cpuTimes[i] }));
}

/**
 * The throughput ratio as the median of each rep's own ratio (the baseline and the chain ran one after the other):
 * pairing keeps it steady when the machine's speed drifts during the run, which a ratio of medians is not.
 */
function pairedRatio(reference: Row, row: Row, of: 'times' | 'cpuTimes' = 'times'): number {
  return median(reference[of].map((ms, rep) => ms / row[of][rep]!));
}

function table(rows: Row[], reference: Row): string {
  const head = ['', 'median ms', 'CPU ms', 'MB/s', 'events/s', 'heap peak MB', 'vs baseline'];
  const body = rows.map((r) => [
    r.name,
    r.ms.toFixed(0),
    r.cpuMs.toFixed(0),
    (log.bytes.length / 1e6 / (r.ms / 1000)).toFixed(1),
    Math.round(log.events / (r.ms / 1000)).toLocaleString('en-US'),
    mb(r.heapPeak),
    `${(reference.ms / r.ms).toFixed(2)}×`,
  ]);
  const widths = head.map((_, col) => Math.max(...[head, ...body].map((row) => row[col].length)));
  return [head, ...body].map((row) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join('  ')).join('\n');
}

// An untimed check run: the log is valid (validate would fail the pipeline otherwise) and the planted secrets are redacted.
const check = await runOnce(outputChain, true);
console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim()}), ${process.platform}/${process.arch}`);
console.log(
  `input (${args.log} log${args.credential ? ", a credential in use" : ""}): ${log.events.toLocaleString('en-US')} events in ${log.runs} runs, ${mb(log.bytes.length)} MB, ${chunks.length} chunks of ${chunkBytes / 1024} KiB; ` +
    `secrets planted ${log.secrets}, [REDACTED] out ${check.sink.redacted}; output ${check.sink.chunks.toLocaleString('en-US')} lines`,
);
gc();
console.log(
  `${reps} reps after 1 warm-up, interleaved; median time; MB = 10^6 bytes of input; ` +
    `heap sampled every 1024 output chunks (${mb(process.memoryUsage().heapUsed)} MB at rest after GC)\n`,
);

const rows = await measure([
  { name: args.live ? 'baseline (JSON.stringify of the events)' : 'baseline (split2 → JSON.parse → JSON.stringify)', stages: baseline },
  { name: args.live ? "exec's output chain (guard → redact → stamp → serialize)" : 'output chain (split → … → serialize), fused', stages: outputChain },
  ...(other ? [{ name: `the same, ${args.against}'s build`, stages: fusedChain(other) }] : []),
  ...(args.live ? [{ name: 'JSON.stringify of the events stamped (the bytes exec writes)', stages: baseline, events: stampedAgentEvents }] : [{ name: 'the same stages, one stream each', stages: outputStages }]),
  // what the chain costs besides redaction, in the same reps: the rest of the fused chain runs at about the bare chain's rate
  ...(args.stages && !args.live ? [{ name: 'the fused chain without its redact step', stages: fusedChain(here, false) }] : []),
]);
const [base, chain] = rows;
console.log(table(rows, base));
const ratios = (row: Row) => `${pairedRatio(base, row).toFixed(2)}, CPU ${pairedRatio(base, row, 'cpuTimes').toFixed(2)}`;
console.log(`\noutput chain / baseline throughput: ${ratios(chain)} (median of ${reps} paired runs; ratio of the median times ${(base.ms / chain.ms).toFixed(2)})`);
for (const row of rows.slice(2)) console.log(`${row.name}: ${ratios(row)}`);
const stampedBase = args.live ? rows.at(-1)! : undefined;
if (stampedBase) console.log(`output chain / the stamped events' JSON.stringify: ${pairedRatio(stampedBase, chain).toFixed(2)}, CPU ${pairedRatio(stampedBase, chain, 'cpuTimes').toFixed(2)}`);

if (args.stages && !args.live) {
  // Prefixes of the chain drained to a sink do not add up (the one that ends at redact can take longer than the one
  // that ends at stamp), so each stage's step runs alone, in this process, over what the stages before it made
  // (made once, untimed): CPU time, the least of the reps, this build and --against's interleaved.
  const builds = other ? [here, other] : [here];
  const inputs = (build: Build) => {
    const lines = build.applyStep(build.createLineFramer({ label: 'bench log' }), chunks);
    const parsed = build.applyStep(build.parseStep(), lines);
    const events = build.applyStep(build.validateStep('output'), parsed);
    const redacted = build.applyStep(build.redactStep(redactOptions), events);
    const json = build.applyStep(build.serializeStep('stream-json', process.stderr), redacted) as string[];
    // the serialized lines in batches of a chunk's worth, as the fused stream writes them
    const batches = chunks.map((_, n) => json.slice(Math.floor((n * json.length) / chunks.length), Math.floor(((n + 1) * json.length) / chunks.length)));
    return { lines, parsed, events, redacted, batches };
  };
  const prepared = builds.map(inputs);
  const bareLines: string[] = [];
  const splitBare = () => {
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (const chunk of chunks) {
      const lines = (rest + decoder.write(chunk)).split(/\r?\n/);
      rest = lines.pop()!;
      bareLines.push(...lines);
    }
  };
  splitBare();
  const bareValues = bareLines.map((line) => JSON.parse(line) as unknown);
  const bareJson = bareValues.map((value) => `${JSON.stringify(value)}\n`);
  const stages: Array<[string, (build: Build, input: (typeof prepared)[number]) => unknown, (() => unknown)?]> = [
    ['split', (build) => build.applyStep(build.createLineFramer({ label: 'bench log' }), chunks), () => ((bareLines.length = 0), splitBare())],
    ['parse', (build, { lines }) => build.applyStep(build.parseStep(), lines), () => bareLines.map((line) => JSON.parse(line) as unknown)],
    ['validate', (build, { parsed }) => build.applyStep(build.validateStep('output'), parsed)],
    ['guard', (build, { events }) => events.forEach((event) => build.checkEvent('outputChain', event))],
    ['redact', (build, { events }) => build.applyStep(build.redactStep(redactOptions), events)],
    ['stamp', (build, { redacted }) => build.applyStep(build.stampStep(), redacted)],
    ['serialize', (build, { redacted }) => build.applyStep(build.serializeStep('stream-json', process.stderr), redacted), () => bareValues.map((value) => `${JSON.stringify(value)}\n`)],
    // the two as the chain runs them: the serializer gets each stamped object as it is made
    ['stamp → serialize', (build, { redacted }) => build.applyStep(build.composeSteps([build.stampStep(), build.serializeStep('stream-json', process.stderr)]), redacted), () => bareValues.map((value) => `${JSON.stringify(value)}\n`)],
    ['to bytes', (build, { batches }) => batches.map((batch) => build.concatBytes(batch)), () => bareJson.map((line) => Buffer.from(line))],
  ];
  const cpuOf = (work: () => unknown) => {
    const start = process.cpuUsage();
    work();
    const { user, system } = process.cpuUsage(start);
    return (user + system) / 1000;
  };
  const head = ['stage alone, CPU ms (least of reps)', 'this build', ...(other ? [`${args.against}`] : []), 'bare chain'];
  const body: string[][] = [];
  for (const [name, run, bare] of stages) {
    const least = builds.map(() => Infinity);
    let bareLeast = Infinity;
    for (let rep = 0; rep < reps + 1; rep++) {
      builds.forEach((build, n) => (least[n] = Math.min(least[n]!, cpuOf(() => run(build, prepared[n]!)))));
      if (bare) bareLeast = Math.min(bareLeast, cpuOf(bare));
    }
    body.push([name, ...least.map((ms) => ms.toFixed(1)), bare ? bareLeast.toFixed(1) : '']);
  }
  const widths = head.map((_, col) => Math.max(...[head, ...body].map((row) => row[col]!.length)));
  console.log(`\n${[head, ...body].map((row) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join('  ')).join('\n')}`);
}
