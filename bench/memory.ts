/**
 * Memory and start-up of whole `zero` processes (bin/zero, as a user runs it), each in a child process whose
 * RSS is read from /proc: `zero redact` of a large log to a slow reader (RSS over time, by quarter),
 * `zero redact` of the foreign log to a reader stalled 4 s (peak RSS), `zero render` of a 100 MB log (peak RSS), 10^6 tiny input events through `zero exec` (peak RSS against the
 * input's size), a huge answer from a loopback OpenAI server (peak RSS against the answer and its deltas; a token-dense one:
 * its final's first byte and a SIGINT while it is written), 100,000
 * messages of 10 KB while a permission_request waits (peak RSS, bench/soak-field.ts), and `zero --version` against
 * `node -e ''` (paired, alternating runs).
 *
 *   node dist/bench/memory.js [--gb 1] [--reader-mbps 1] [--render-mb 100] [--tiny 1000000] [--answer-mb 100] [--delta-mb 1] [--flood 100000] [--starts 20]
 *     [--only start,tiny,answer,final,flood,render,stalled,redact]
 *
 * A report, never a test: nothing is asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { foreignLog } from './foreign-log.js';
import { FLOOD_PEAK_KB, floodDuringWait } from './soak-field.js';
import { syntheticLog } from './synthetic-log.js';

const { values: args } = parseArgs({
  options: {
    gb: { type: 'string', default: '1' },
    'reader-mbps': { type: 'string', default: '1' },
    'render-mb': { type: 'string', default: '100' },
    tiny: { type: 'string', default: '1000000' },
    'answer-mb': { type: 'string', default: '100' },
    'delta-mb': { type: 'string', default: '1' },
    flood: { type: 'string', default: '100000' },
    starts: { type: 'string', default: '20' },
    only: { type: 'string', default: 'start,tiny,answer,final,flood,render,stalled,redact' },
  },
});

const here = dirname(fileURLToPath(import.meta.url));
const ZERO = resolve(here, here.split(/[\\/]/).includes('dist') ? '../..' : '..', 'bin', 'zero');
const work = mkdtempSync(join(tmpdir(), 'zero-bench-'));
const env = { ...process.env, ZERO_HOME: join(work, 'home'), XDG_CONFIG_HOME: join(work, 'config') };
const MiB = 2 ** 20;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;

/** A field of /proc/PID/status in bytes (VmRSS, VmHWM), or 0 once the process is gone. */
function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a child's RSS every `everyMs` until it exits; its peak (VmHWM) as last seen, and its exit code. */
function watch(child: ChildProcess, everyMs = 100): Promise<{ samples: number[]; peak: number; code: number | null; ms: number }> {
  const samples: number[] = [];
  let peak = 0;
  const started = performance.now();
  const timer = setInterval(() => {
    const rss = status(child.pid!, 'VmRSS');
    if (rss) samples.push(rss);
    peak = Math.max(peak, status(child.pid!, 'VmHWM'));
  }, everyMs);
  return new Promise((done) =>
    child.on('close', (code) => {
      clearInterval(timer);
      done({ samples, peak, code, ms: performance.now() - started });
    }),
  );
}

const zero = (zeroArgs: string[]) => spawn(process.execPath, [ZERO, ...zeroArgs], { env, stdio: ['pipe', 'pipe', 'inherit'] });

/** Peak RSS of Node doing nothing: the floor every process here starts from. */
async function nodeBaseline(): Promise<number> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 300)'], { stdio: 'ignore' });
  return (await watch(child, 20)).peak;
}

/** `zero redact` of `bytes` of log (the benchmark log, repeated) to a reader taking `mbps` MB/s. */
async function redactToSlowReader(bytes: number, mbps: number): Promise<void> {
  const log = syntheticLog({ events: 20_000, seed: 7 }).bytes;
  const child = zero(['redact']);
  const watching = watch(child, 250);
  // the reader: takes what the bucket allows, pauses otherwise, so backpressure goes all the way to the writer
  let allowance = 0;
  const refill = setInterval(() => {
    allowance += (mbps * 1e6) / 20;
    if (allowance > 0 && child.stdout!.isPaused()) child.stdout!.resume();
  }, 50);
  let read = 0;
  child.stdout!.on('data', (chunk: Buffer) => {
    read += chunk.length;
    allowance -= chunk.length;
    if (allowance <= 0) child.stdout!.pause();
  });
  let written = 0;
  while (written < bytes) {
    for (let at = 0; at < log.length && written < bytes; at += 65536) {
      const chunk = log.subarray(at, at + 65536);
      written += chunk.length;
      if (!child.stdin!.write(chunk)) await new Promise<void>((drain) => child.stdin!.once("drain", () => drain()));
    }
  }
  child.stdin!.end();
  const { samples, peak, ms } = await watching;
  clearInterval(refill);
  const quarter = Math.max(1, Math.floor(samples.length / 4));
  const range = (part: number[]) => `${mib(Math.min(...part))}–${mib(Math.max(...part))}`;
  console.log(
    `zero redact, ${(written / 1e9).toFixed(2)} GB to a reader at ${mbps} MB/s: ${(ms / 1000).toFixed(0)} s, ${(read / 1e9).toFixed(2)} GB out; ` +
      `peak RSS ${mib(peak)}; RSS first quarter ${range(samples.slice(0, quarter))}, last quarter ${range(samples.slice(-quarter))}`,
  );
}

/** `zero redact` of the foreign log (bench/foreign-log.ts) to a reader that reads nothing for `stallMs`, then everything. */
async function redactToStalledReader(stallMs: number): Promise<void> {
  const log = foreignLog({ events: 200_000 }).bytes;
  const child = zero(['redact']);
  const watching = watch(child, 20);
  child.stdout!.pause();
  const stalled = setTimeout(() => child.stdout!.resume(), stallMs);
  for (let at = 0; at < log.length; at += 65536) {
    if (!child.stdin!.write(log.subarray(at, at + 65536))) await new Promise<void>((drain) => child.stdin!.once('drain', () => drain()));
  }
  child.stdin!.end();
  const { peak, ms } = await watching;
  clearTimeout(stalled);
  console.log(`zero redact of the foreign log (${mib(log.length)}) to a reader stalled ${stallMs / 1000} s: ${(ms / 1000).toFixed(1)} s, peak RSS ${mib(peak)} (goal < 100 MiB)`);
}

/** A synthetic log of about `mb` MB in a file. */
function logFile(mb: number): string {
  const file = join(work, `log-${mb}.jsonl`);
  const out: Buffer[] = [];
  let size = 0;
  for (let seed = 1; size < mb * 1e6; seed++) {
    const part = syntheticLog({ events: 50_000, seed }).bytes;
    out.push(part);
    size += part.length;
  }
  writeFileSync(file, Buffer.concat(out));
  return file;
}

async function renderLarge(mb: number): Promise<void> {
  const file = logFile(mb);
  const child = zero(['render', file]);
  child.stdout!.resume();
  const { peak, ms, code } = await watch(child, 50);
  console.log(`zero render of a ${(statSync(file).size / 1e6).toFixed(0)} MB log: ${(ms / 1000).toFixed(1)} s, exit ${code}, peak RSS ${mib(peak)}`);
}

/** Once with the run's session (the default: every event is also stored), once with --no-session. */
async function tinyEvents(count: number, baseline: number): Promise<void> {
  const input = join(work, 'tiny.jsonl');
  const out = createWriteStream(input);
  const line = `${JSON.stringify({ schemaVersion: 1, type: 'prompt', content: 'a' })}\n`;
  for (let n = 0; n < count; n++) if (!out.write(line)) await new Promise<void>((drain) => out.once("drain", () => drain()));
  out.end();
  await finished(out);
  const script = join(work, 'tiny-script.jsonl');
  writeFileSync(script, `${JSON.stringify({ text: 'ok' })}\n`);
  const size = statSync(input).size;
  for (const session of [[], ['--no-session']]) {
    const child = zero(['exec', '-i', 'stream-json', '-o', 'stream-json', ...session, '--provider', 'scripted', '--script', script, '-f', input]);
    child.stdin!.end();
    child.stdout!.resume();
    const { peak, ms, code } = await watch(child, 20);
    console.log(
      `${count.toLocaleString('en-US')} tiny input events (${mib(size)}) through zero exec ${session.length ? '--no-session' : 'with its session'}: ${(ms / 1000).toFixed(1)} s, exit ${code}, ` +
        `peak RSS ${mib(peak)} = ${((peak - baseline) / size).toFixed(2)}× the input above Node's baseline (goal ≤ 1.5×)`,
    );
  }
}

/** One delta of prose; of token-dense text (`final`: a key on every line, the stream redactor's slowest text), a key a line. */
const proseDelta = (deltaMb: number) => 'lorem ipsum dolor sit amet, '.repeat(Math.ceil((deltaMb * MiB) / 28)).slice(0, deltaMb * MiB);
const keysDelta = (deltaMb: number) =>
  Array.from({ length: Math.ceil((deltaMb * MiB) / 56) }, (_, index) => `key=sk-${index.toString(16).padStart(8, '0')}${'7e3f'.repeat(10)}\n`).join('').slice(0, deltaMb * MiB);

/** A loopback OpenAI-compatible server whose every reply is `mb` MiB of answer in deltas of `deltaMb` MiB (of prose, or what `makeDelta` makes). */
async function hugeAnswerServer(mb: number, deltaMb: number, makeDelta = proseDelta): Promise<{ url: string; close(): void }> {
  const delta = makeDelta(deltaMb);
  const frame = (choice: object) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1764480000, model: 'gpt-4.1', choices: [{ index: 0, ...choice }] })}\n\n`;
  const server = createServer((req, res) =>
    req.resume().on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let n = 0; n < mb / deltaMb; n++) {
        if (!res.write(frame({ delta: { content: delta }, finish_reason: null }))) await new Promise((drain) => res.once('drain', drain));
      }
      res.end(`${frame({ delta: {}, finish_reason: 'stop' })}data: [DONE]\n\n`);
    }),
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => server.close() };
}

/** `zero exec` of the server's answer; its peak RSS (VmHWM), time, exit code and bytes out. */
async function answerRun(server: { url: string }, session: string[]): Promise<{ peak: number; ms: number; code: number | null; out: number }> {
  const child = spawn(process.execPath, [ZERO, 'exec', '--provider', 'openai', '-m', 'gpt-4.1', '-o', 'stream-json', ...session, 'Write a lot.'], {
    env: { ...env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'bench' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = 0;
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.length));
  return { ...(await watch(child, 20)), out };
}

/**
 * `zero exec` of an answer of `mb` MiB in 1 MiB deltas, with its session and with --no-session, beside an answer of
 * one delta: what the answer adds to zero's own peak is the figure whose goal is a small multiple of the largest delta.
 */
async function hugeAnswer(mb: number, deltaMb: number, baseline: number): Promise<void> {
  const [server, small] = [await hugeAnswerServer(mb, deltaMb), await hugeAnswerServer(deltaMb, deltaMb)];
  try {
    for (const session of [[], ['--no-session']]) {
      const floor = await answerRun(small, session);
      const { peak, ms, code, out } = await answerRun(server, session);
      console.log(
        `a ${mb} MiB answer in ${deltaMb} MiB deltas through zero exec ${session.length ? '--no-session' : 'with its session'}: ${(ms / 1000).toFixed(1)} s, exit ${code}, ${mib(out)} out, ` +
          `peak RSS ${mib(peak)}, ${mib(peak - baseline)} above Node's baseline = ${((peak - baseline) / (deltaMb * MiB)).toFixed(0)}× the largest delta ` +
          `(goal: a small multiple of the largest delta); a ${deltaMb} MiB answer (one delta) peaks at ${mib(floor.peak)}, ` +
          `so the answer adds ${mib(peak - floor.peak)} = ${((peak - floor.peak) / (mb * MiB)).toFixed(2)}× the answer`,
      );
    }
  } finally {
    server.close();
    small.close();
  }
}

/**
 * A token-dense answer of `mb` MiB in 64 KiB deltas, with its session: the longest stdout stays silent (its `final` is redacted as it
 * is written, lib/files/text-spool.ts; it was redacted in one blocking pass), and how long a SIGINT takes to end the
 * run, sent 1 s into the final or into a silence of stdout once the text has begun, whichever comes first.
 */
async function finalSignal(mb: number): Promise<void> {
  // 64 KiB deltas: each delta is redacted as it comes, and a 1 MiB one of keys holds the loop ~0.2 s itself
  const server = await hugeAnswerServer(mb, 1 / 16, keysDelta);
  try {
    const child = spawn(process.execPath, [ZERO, 'exec', '--provider', 'openai', '-m', 'gpt-4.1', '-o', 'stream-json', 'Write keys.'], {
      env: { ...env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'bench' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let [lastChunkAt, finalAt, signalAt, silence] = [0, 0, 0, 0];
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const now = performance.now();
      if (lastChunkAt) silence = Math.max(silence, now - lastChunkAt);
      if (lastChunkAt || chunk.includes('"type":"text"')) lastChunkAt = now;
      if (!finalAt && chunk.includes('"type":"final"')) finalAt = now;
    });
    const check = setInterval(() => {
      const now = performance.now();
      if (signalAt || !lastChunkAt || now - (finalAt || lastChunkAt) < 1000) return;
      signalAt = now;
      child.kill('SIGINT');
    }, 50);
    const code = await new Promise<number | null>((done) => child.on('close', done));
    clearInterval(check);
    const exitAt = performance.now();
    console.log(
      `a token-dense ${mb} MiB answer in 64 KiB deltas through zero exec with its session: stdout silent ${(silence / 1000).toFixed(2)} s at most; ` +
        (signalAt ? `SIGINT ${finalAt && finalAt < signalAt ? '1 s into the final' : 'into a silence'} to exit ${(exitAt - signalAt).toFixed(0)} ms, exit ${code}` : `no SIGINT sent, exit ${code}`),
    );
  } finally {
    server.close();
  }
}

/** 100,000 messages of 10 KB while a permission_request waits (bench/soak-field.ts). */
async function floodWait(messages: number): Promise<void> {
  const { decision, peakKb } = await floodDuringWait(work, messages);
  console.log(
    `${messages.toLocaleString('en-US')} messages of 10 KB while a permission_request waits: the answer ${decision?.action === 'allow' ? 'landed' : 'did not land'}, ` +
      `peak RSS ${mib(peakKb * 1024)} (goal < ${mib(FLOOD_PEAK_KB * 1024)})`,
  );
}

/** Wall time of one process, start to exit. */
function wall(command: string, commandArgs: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(command, commandArgs, { env, stdio: 'ignore' });
  return new Promise((done) => child.on('close', () => done(performance.now() - started)));
}

async function startUp(runs: number): Promise<void> {
  const ratios: number[] = [];
  for (let n = 0; n < runs + 1; n++) {
    const a = await wall(process.execPath, [ZERO, '--version']);
    const b = await wall(process.execPath, ['-e', '']);
    if (n > 0) ratios.push(a / b);
  }
  ratios.sort((x, y) => x - y);
  const at = (q: number) => ratios[Math.floor(q * (ratios.length - 1))]!.toFixed(2);
  console.log(`zero --version / node -e '' (${runs} pairs, alternating): median ${at(0.5)}×, min ${at(0)}×, max ${at(1)}× (goal < 1.5×)`);
}

try {
  const baseline = await nodeBaseline();
  console.log(`node ${process.version}; Node's own peak RSS doing nothing: ${mib(baseline)}\n`);
  const only = new Set(args.only.split(','));
  if (only.has('start')) await startUp(Number(args.starts));
  if (only.has('tiny')) await tinyEvents(Number(args.tiny), baseline);
  if (only.has('answer')) await hugeAnswer(Number(args['answer-mb']), Number(args['delta-mb']), baseline);
  if (only.has('final')) await finalSignal(Number(args['answer-mb']));
  if (only.has('flood')) await floodWait(Number(args.flood));
  if (only.has('render')) await renderLarge(Number(args['render-mb']));
  if (only.has('stalled')) await redactToStalledReader(4000);
  if (only.has('redact')) await redactToSlowReader(Number(args.gb) * 1e9, Number(args['reader-mbps']));
} finally {
  rmSync(work, { recursive: true, force: true });
}
