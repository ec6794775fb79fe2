/**
 * How long a streamed word takes from the provider to zero's stdout: an OpenAI-compatible server on 127.0.0.1
 * writes a reply of `chunks` chunks `gap` ms apart, timestamping each write; a reader of `zero exec -o
 * stream-json` (session on, as by default) timestamps each `text` line as it arrives. A chunk's latency is the
 * time from its write to the first line after which the streamed text holds its first word. The baseline, run
 * alternately with zero (and zero --no-session), is a bare Node process that reads the same stream with fetch and prints each delta as a JSON line:
 * what the machine itself costs (two processes, loopback HTTP, a pipe).
 *
 * Two shapes of chunk, one table each: ` wordN and the next`, and one word a chunk (` wordN`), as many providers
 * stream: then the word is the delta's last, and a redactor that held every delta's last word until the next one
 * made each wait a whole gap.
 *
 *   node dist/bench/latency.js [--runs 5] [--chunks 60] [--gap 40] [--shape both|words|one-word] [--against OTHER/bin/zero]
 *
 * `--against` adds another build of zero (main's, say) to the alternation, session on: a change measured against
 * it in the same run.
 *
 * A report, never a test: nothing is asserted.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    chunks: { type: 'string', default: '60' },
    gap: { type: 'string', default: '40' },
    shape: { type: 'string', default: 'both' },
    against: { type: 'string' },
  },
});
const chunks = Number(args.chunks);
const gapMs = Number(args.gap);

const here = dirname(fileURLToPath(import.meta.url));
const ZERO = resolve(here, here.split(/[\\/]/).includes('dist') ? '../..' : '..', 'bin', 'zero');
const work = mkdtempSync(join(tmpdir(), 'zero-latency-'));

/** Chunk n's first word, found nowhere else in the reply. */
const word = (n: number) => `word${String.fromCharCode(97 + (n % 26))}${n}x`;
/** The shape of the reply being measured. */
let oneWord = false;
const delta = (n: number) => (oneWord ? ` ${word(n)}` : ` ${word(n)} and the next`);
const frame = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1764480000, model: 'gpt-4.1', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** The write times (performance.now()) of the current reply's chunks. */
let written: number[] = [];
const server = createServer((req, res) => {
  req.resume().on('end', async () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(frame({ role: 'assistant', content: '' }));
    for (let n = 0; n < chunks; n++) {
      await sleep(gapMs);
      written[n] = performance.now();
      res.write(frame({ content: delta(n) }));
    }
    res.write(frame({}, 'stop'));
    res.end('data: [DONE]\n\n');
  });
});
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;

const BARE = `
const res = await fetch(process.env.OPENAI_BASE_URL + '/chat/completions', { method: 'POST', body: '{}' });
let rest = '';
for await (const piece of res.body.pipeThrough(new TextDecoderStream())) {
  const frames = (rest + piece).split('\\n\\n');
  rest = frames.pop();
  for (const f of frames) {
    const json = f.slice(6);
    if (json === '[DONE]') continue;
    const delta = JSON.parse(json).choices[0]?.delta?.content;
    if (delta) process.stdout.write(JSON.stringify({ type: 'text', delta }) + '\\n');
  }
}`;

/** One reply read through a command; each chunk's latency in ms. */
async function measure(command: string[]): Promise<number[]> {
  written = [];
  const env = { ...process.env, OPENAI_BASE_URL: baseUrl, ZERO_HOME: join(work, 'home'), XDG_CONFIG_HOME: join(work, 'config') };
  const child = spawn(process.execPath, command, { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const seen: number[] = [];
  let text = '';
  let rest = '';
  let next = 0;
  child.stdout.setEncoding('utf8').on('data', (piece: string) => {
    const at = performance.now();
    const lines = (rest + piece).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      const event = JSON.parse(line) as { type: string; delta?: string };
      if (event.type !== 'text') continue;
      text += event.delta;
      while (next < chunks && text.includes(word(next))) seen[next++] = at;
    }
  });
  await new Promise((done) => child.on('close', done));
  return seen.map((at, n) => at - written[n]!);
}

const execArgs = ['exec', '--provider', 'openai', '-m', 'gpt-4.1', '-o', 'stream-json', 'Say sixty words.'];
const zeroRun = [ZERO, ...execArgs];
const otherRun = args.against ? [args.against, ...execArgs] : undefined;
const bareRun = ['--input-type=module', '-e', BARE];
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)]!;
/** A command's replies, one array of chunk latencies each. */
type Replies = number[][];
const median = (xs: number[]) => percentile(xs, 50);

/**
 * Replies of the current shape through zero, the bare reader and zero --no-session, alternating; a table of them:
 * the percentiles over every chunk, and the median of the replies' first and of their last chunks (where a fresh
 * process and a reply's end show).
 */
async function measureShape(): Promise<void> {
  const [zero, bare, noSession, other]: Replies[] = [[], [], [], []];
  await measure(zeroRun); // warm-up: the file cache and the session folder
  for (let run = 0; run < Number(args.runs); run++) {
    // alternating, so a busier moment of the machine weighs on both
    const order: [Replies, string[]][] = [[zero, zeroRun], [bare, bareRun], [noSession, [...zeroRun, '--no-session']]];
    if (otherRun) order.splice(1, 0, [other, otherRun]);
    if (run % 2 === 1) order.reverse();
    for (const [into, command] of order) into.push(await measure(command));
  }
  const shape = oneWord ? 'one-word ' : '';
  console.log(`node ${process.version}; ${args.runs} replies of ${chunks} ${shape}chunks ${gapMs} ms apart, each way; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log('first word on stdout after the server wrote its chunk (ms):');
  const rows: [string, Replies, string][] = [['zero exec -o stream-json', zero, '  (goal: p90 ≤ 2, p99 ≤ 5)'], ['  the same, --no-session', noSession, ''], ['bare Node reader (baseline)', bare, '']];
  if (otherRun) rows.splice(1, 0, [`  ${args.against}`, other, '']);
  for (const [name, replies, goal] of rows) {
    const xs = replies.flat();
    const ends = `first ${median(replies.map((reply) => reply[0]!)).toFixed(2)}  last ${median(replies.map((reply) => reply.at(-1)!)).toFixed(2)}`;
    console.log(`  ${name.padEnd(28)} p50 ${percentile(xs, 50).toFixed(2)}  p90 ${percentile(xs, 90).toFixed(2)}  p99 ${percentile(xs, 99).toFixed(2)}  max ${Math.max(...xs).toFixed(2)}  ${ends}  (${xs.length} chunks)${goal}`);
  }
}

for (const shape of args.shape === 'both' ? [false, true] : [args.shape === 'one-word']) {
  oneWord = shape;
  await measureShape();
}
server.close();
rmSync(work, { recursive: true, force: true });
