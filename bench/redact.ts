/**
 * Throughput of redaction against JSON.stringify, in one process, over the
 * same events: the synthetic stream-json log's events (short text deltas,
 * tool calls, tool results full of code and logs with a few planted secrets,
 * usage, final) plus chunks of ordinary prose and code.
 *
 *   node dist/bench/redact.js [--events 200000] [--reps 7] [--seed 42]
 *
 * Each row times passes over a set of events (all of them, the text deltas,
 * the tool results): JSON.stringify per event, redactEvent per event,
 * redactText over each event's text fields, mayContainSecret (the combined
 * prefilter) over the same fields. MB = 10^6 bytes of the events' JSON. The
 * ratio is time / JSON.stringify's time: below 1.0, redaction costs less than
 * serializing. Env: BENCH_EVENTS, BENCH_REPS. (In the output chain, text
 * deltas go through the streaming redactor, lib/redaction/stream.ts, which
 * calls redactText on held-back windows: bench/output-chain.ts measures that.)
 * A report, never a test: nothing is asserted.
 */
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { mayContainSecret, redactEvent, redactText } from '../lib/redaction/index.js';
import { syntheticLog } from './synthetic-log.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: process.env.BENCH_EVENTS ?? '200000' },
    reps: { type: 'string', default: process.env.BENCH_REPS ?? '7' },
    seed: { type: 'string', default: '42' },
  },
});
const reps = Math.max(1, Number(args.reps));

type Event = Record<string, unknown> & { type: string };

/** Ordinary text outside the log's vocabulary: prose and code mentioning keys, tokens and passwords, no secrets. */
const ORDINARY = [
  'The tokenizer counts promptTokens and completionTokens; max_tokens caps the reply. See the task-list below.\n',
  'const token = await loadCredential(profile);\nlet password = prompt("Password: ");\nconst apiKey = process.env.OPENAI_API_KEY;\n',
  'The bearer of bad news said the risk-level is medium. Authorization is required for the admin console.\n',
  'export async function fetchJson(url: string): Promise<unknown> {\n  const response = await fetch(url, { headers: { accept: "application/json" } });\n  return response.json();\n}\n',
];

const log = syntheticLog({ events: Number(args.events), seed: Number(args.seed) });
const events: Event[] = log.bytes.toString('utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Event);
const ORDINARY_OUTPUTS = 2000;
for (let n = 0; n < ORDINARY_OUTPUTS; n++) {
  events.push({ type: 'tool_result', id: `call_o${n}`, status: 'ok', output: ORDINARY[n % ORDINARY.length].repeat(1 + (n % 16)), truncated: false });
}

/** The string fields redaction reads as text: deltas, tool outputs, final text, messages. */
const textsOf = (list: Event[]): string[] =>
  list.flatMap((event) => ['delta', 'output', 'text', 'message'].flatMap((key) => (typeof event[key] === 'string' ? [event[key] as string] : [])));

type Part = { name: string; events: Event[]; texts: string[]; jsonBytes: number };
const part = (name: string, list: Event[]): Part => ({
  name,
  events: list,
  texts: textsOf(list),
  jsonBytes: list.reduce((sum, event) => sum + Buffer.byteLength(JSON.stringify(event)), 0),
});
const parts: Part[] = [
  part('all events', events),
  part('text deltas', events.filter((event) => event.type === 'text')),
  part('tool results', events.filter((event) => event.type === 'tool_result')),
];

let sink = 0;
/** The four passes over one part, in the order of the table's columns. */
const passes = (p: Part): Array<() => number> => [
  () => p.events.reduce((n, event) => n + JSON.stringify(event).length, 0),
  () => p.events.reduce((n, event) => n + (redactEvent(event) === event ? 0 : 1), 0),
  () => p.texts.reduce((n, text) => n + redactText(text).length, 0),
  () => p.texts.reduce((n, text) => n + (mayContainSecret(text) ? 1 : 0), 0),
];

/** One warm-up pass each, then `reps` rounds interleaved across all passes; the median time of each. */
function measure(runs: Array<() => number>): number[] {
  for (const run of runs) sink += run();
  const times = runs.map(() => [] as number[]);
  for (let rep = 0; rep < reps; rep++) {
    for (const [i, run] of runs.entries()) {
      const start = performance.now();
      sink += run();
      times[i].push(performance.now() - start);
    }
  }
  return times.map((xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]);
}

const all = parts[0];
const changed = all.events.filter((event) => redactEvent(event) !== event).length;
const markers = all.events.reduce((n, event) => n + JSON.stringify(redactEvent(event)).split('[REDACTED]').length - 1, 0);
const passing = all.texts.filter((text) => mayContainSecret(text)).length;
console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim()}), ${process.platform}/${process.arch}`);
console.log(
  `input: ${events.length.toLocaleString('en-US')} events (${log.events.toLocaleString('en-US')} from the synthetic log, seed ${args.seed}, ` +
    `+ ${ORDINARY_OUTPUTS.toLocaleString('en-US')} tool results of ordinary prose and code), ${(all.jsonBytes / 1e6).toFixed(1)} MB as JSON; ` +
    `secrets planted ${log.secrets}, [REDACTED] out ${markers} in ${changed} events; ` +
    `text fields passing the prefilter ${passing.toLocaleString('en-US')} of ${all.texts.length.toLocaleString('en-US')} (${((100 * passing) / all.texts.length).toFixed(1)}%)`,
);
console.log(`${reps} reps after 1 warm-up, interleaved; median ms; MB/s = MB (10^6 bytes) of event JSON per second; ratio = time / JSON.stringify time\n`);

const times = measure(parts.flatMap(passes));
const head = ['', 'MB', 'JSON.stringify', 'redactEvent', 'ratio', 'redactText', 'ratio', 'prefilter', 'ratio'];
const rows = parts.map((p, n) => {
  const [json, event, text, filter] = times.slice(4 * n, 4 * n + 4);
  const cell = (ms: number) => `${ms.toFixed(1)} ms ${(p.jsonBytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;
  const ratio = (ms: number) => (ms / json).toFixed(2);
  return [p.name, (p.jsonBytes / 1e6).toFixed(1), cell(json), cell(event), ratio(event), cell(text), ratio(text), cell(filter), ratio(filter)];
});
const widths = head.map((_, col) => Math.max(...[head, ...rows].map((row) => row[col].length)));
console.log([head, ...rows].map((row) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col]))).join('  ')).join('\n'));
const [json, event, text] = times;
console.log(`\nredaction / JSON.stringify time, all events: redactEvent ${(event / json).toFixed(2)}, redactText ${(text / json).toFixed(2)} (goal: below 1.0)`);
if (sink === -1) console.log('');
