/**
 * A deterministic synthetic stream-json output log (schemaVersion 1), for the
 * benchmarks: several runs of run_start, turns of short text deltas, tool_call
 * + tool_result pairs (some results carrying secrets to redact), usage, final
 * and run_end. Same seed, same bytes.
 */

import { prng } from './prng.js';

export type SyntheticLog = {
  bytes: Buffer;
  events: number;
  runs: number;
  /** Secrets planted in tool results: each should come out as one `[REDACTED]`. */
  secrets: number;
};

const PROSE =
  'I will look at the failing test first. The stream stops when `highWaterMark` is reached, so the ' +
  'writer has to wait for "drain" before it continues.\nHere is the fix:\n\n```ts\nconst out = await read(path);\n```\n' +
  'That keeps memory flat; the parser only ever holds one line. Next, I checked the config — it looks fine. ';

const TOOL_LINES = [
  "import { readFile } from 'node:fs/promises';",
  'export async function loadConfig(path: string): Promise<Config> {',
  "  const raw = JSON.parse(await readFile(path, 'utf8'));",
  '  if (!raw.token) throw new Error(`missing token in ${path}`);',
  '  return { ...defaults, ...raw, apiKey: process.env.API_KEY };',
  '}',
  '2025-06-01T12:00:03.412Z INFO  server listening on http://127.0.0.1:8080/?debug=1&trace=0',
  '2025-06-01T12:00:04.019Z WARN  retrying request (attempt 2/5) after 429 Too Many Requests',
  'src/pipeline.ts:42:  return new pumpify.obj(redact(options), stamp(options), serialize(format));',
  'test/split.test.ts:17:  t.same(lines, [{ line: "a", lineNo: 1 }]);',
  '# Authentication: set the key in .env, never in code',
  '    "dependencies": { "ajv": "^8.20.0", "split2": "^4.2.0" },',
  '',
];

const TOOLS = ['read_file', 'grep', 'glob', 'list_directory'] as const;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `runs`: how many runs share the events (default: one per 20,000 events, at least 3); many short runs are a day of CI runs concatenated. */
export function syntheticLog(options: { events: number; seed?: number; runs?: number }): SyntheticLog {
  const random = prng(options.seed ?? 42);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const token = (length: number) => Array.from({ length }, () => ALNUM[int(0, ALNUM.length - 1)]).join('');

  const total = Math.max(options.events, 100);
  const runs = options.runs ?? Math.max(3, Math.round(total / 20_000));
  const lines: string[] = [];
  let secrets = 0;
  let callNo = 0;

  const secret = (): string => {
    secrets += 1;
    switch (int(0, 2)) {
      case 0: return `OPENAI_API_KEY=sk-proj-${token(48)}`;
      case 1: return `DATABASE_PASSWORD=${token(16)}`;
      default: return `curl -H "Authorization: Bearer ${token(32)}" https://api.example.com/v1/items`;
    }
  };

  const toolOutput = (): string => {
    const size = int(200, 8192);
    const out: string[] = [];
    let length = 0;
    while (length < size) {
      const line = random() < 0.004 ? secret() : TOOL_LINES[int(0, TOOL_LINES.length - 1)];
      out.push(line);
      length += line.length + 1;
    }
    return out.join('\n');
  };

  for (let run = 0; run < runs; run++) {
    const runId = `run_202506011200${String(run % 60).padStart(2, '0')}_${token(6).toLowerCase()}`;
    const emit = (event: Record<string, unknown>) => {
      const { type, ...rest } = event;
      lines.push(JSON.stringify({ schemaVersion: 1, type, runId, ...rest }));
    };
    const budget = Math.floor(total / runs) * (run + 1) - 2; // leave room for final + run_end
    emit({ type: 'run_start', cwd: '/home/dev/project', provider: 'scripted', model: 'scripted-1' });
    let reply = '';
    while (lines.length < budget) {
      reply = '';
      for (let n = int(20, 300); n > 0 && lines.length < budget; n--) {
        const at = int(0, PROSE.length - 1);
        const delta = PROSE.slice(at, at + int(1, 20));
        reply += delta;
        emit({ type: 'text', delta });
      }
      if (lines.length + 3 > budget) break;
      if (random() < 0.7) {
        const id = `call_${++callNo}`;
        emit({ type: 'tool_call', id, name: TOOLS[int(0, TOOLS.length - 1)], args: { path: `src/module_${int(1, 99)}.ts` }, sideEffect: 'read' });
        emit({ type: 'tool_result', id, status: 'ok', output: toolOutput(), truncated: false });
      }
      const promptTokens = int(500, 50_000);
      const completionTokens = int(10, 2_000);
      emit({ type: 'usage', promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, costUsd: Number((promptTokens * 3e-6).toFixed(6)) });
    }
    emit({ type: 'final', text: reply });
    emit({ type: 'run_end', status: 'success', exitCode: 0 });
  }
  return { bytes: Buffer.from(`${lines.join('\n')}\n`), events: lines.length, runs, secrets };
}
