/**
 * A deterministic stream-json log (schemaVersion 1) of another shape than synthetic-log.ts, the one of issue 29:
 * many runs of 60 events (3,333 runs at 200,000 events, about 65 MB); 70% of events are text deltas of 20–300
 * characters mixing prose, inline code, file paths and diff fragments; tool results of source code and diffs
 * hold about half the bytes; tool calls that write carry whole files in their args; a usage event with costUsd
 * every 20 events; secrets (provider keys, JWTs, passwords in URLs, .env lines) in about one event in a
 * thousand; session ids of another program (`sess_EnZUTZQgBMRI`). Same options, same bytes.
 */

import { prng } from './prng.js';
import type { SyntheticLog } from './synthetic-log.js';

const WORDS = (
  'the a to of and in is that it for this with on we as be not so if then now first next also but ' +
  'test fails because stream writer reader config value function returns error handler module call file path ' +
  'line change update fix check read write parse build output input request response cache buffer option ' +
  'token key password secret auth header session user client server timeout retry limit schema field type'
).split(' ');
const CODE = ['`highWaterMark`', '`JSON.parse`', '`await read()`', '`process.env.API_KEY`', '`npm test`', '`Map<string, Run>`', '`null`', '`--no-session`'];
const DIRS = ['src', 'lib', 'test', 'packages/core/src', 'internal/http', 'cmd/server'];
const NAMES = ['config', 'stream', 'auth', 'session', 'parser', 'index', 'client', 'store', 'router', 'token_cache'];
const EXTS = ['.ts', '.go', '.py', '.rs', '.md', '.json'];
const SOURCE = [
  "import { readFile } from 'node:fs/promises';",
  'export async function load(path: string): Promise<Config> {',
  "  const raw = JSON.parse(await readFile(path, 'utf8'));",
  '  if (!raw.token) throw new Error(`missing token in ${path}`);',
  '  return { ...defaults, ...raw };',
  '}',
  'func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {',
  '\tif r.Header.Get("Authorization") == "" {',
  '\t\thttp.Error(w, "unauthorized", http.StatusUnauthorized)',
  'def refresh(session, key=None):',
  '    return session.post(URL, json={"key": key}, timeout=30)',
  '    for (const [name, value] of Object.entries(headers)) out.set(name.toLowerCase(), value);',
  '// The password is read from the environment, never from a file.',
  '',
];
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const EVENTS_PER_RUN = 60;

export function foreignLog(options: { events: number; seed?: number }): SyntheticLog {
  const random = prng(options.seed ?? 29);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)]!;
  const token = (length: number) => Array.from({ length }, () => ALNUM[int(0, ALNUM.length - 1)]).join('');
  const path = () => `${pick(DIRS)}/${pick(NAMES)}${pick(EXTS)}`;
  let secrets = 0;

  const secret = (): string => {
    secrets += 1;
    switch (int(0, 4)) {
      case 0: return `OPENAI_API_KEY=sk-proj-${token(48)}`;
      case 1: return `ANTHROPIC_API_KEY="sk-ant-api03-${token(40)}"`;
      case 2: return `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${token(40)}.${token(43)}`;
      case 3: return `postgres://app:${token(14)}@db.internal:5432/app`;
      default: return `STRIPE_SECRET_KEY=sk_live_${token(32)}`;
    }
  };
  // Planted in about one event in a thousand: the chance per event, spread over the strings that may carry one.
  const maybeSecret = () => (random() < 0.001 ? ` ${secret()} ` : '');

  const sentence = (length: number): string => {
    let out = '';
    while (out.length < length) {
      const roll = random();
      out += roll < 0.08 ? pick(CODE) : roll < 0.13 ? path() : roll < 0.16 ? `\n${pick(['+', '-', ' '])}${pick(SOURCE)}\n` : pick(WORDS);
      out += random() < 0.1 ? '. ' : ' ';
    }
    return out.slice(0, length);
  };
  const sourceText = (size: number): string => {
    const out: string[] = [];
    let length = 0;
    if (random() < 0.4) out.push(`--- a/${path()}`, `+++ b/${path()}`, `@@ -${int(1, 400)},${int(3, 40)} +${int(1, 400)},${int(3, 40)} @@`);
    while (length < size) {
      const line = `${random() < 0.3 ? pick(['+', '-', ' ']) : ''}${pick(SOURCE)}`;
      out.push(line);
      length += line.length + 1;
    }
    return out.join('\n');
  };

  const lines: string[] = [];
  const runs = Math.max(1, Math.round(options.events / EVENTS_PER_RUN));
  let callNo = 0;
  for (let run = 0; run < runs; run++) {
    const runId = `run_2026${String(1 + (run % 12)).padStart(2, '0')}01${String(100000 + run).slice(-6)}_${token(6).toLowerCase()}`;
    const emit = (event: Record<string, unknown>) => {
      const { type, ...rest } = event;
      lines.push(JSON.stringify({ schemaVersion: 1, type, runId, ...rest }));
    };
    emit({ type: 'run_start', sessionId: `sess_${token(12)}`, cwd: '/srv/ci/checkout', provider: 'openai', model: 'gpt-5.1' });
    let reply = '';
    for (let n = 1; n < EVENTS_PER_RUN - 2; n++) {
      if (n % 20 === 19) {
        const promptTokens = int(2_000, 120_000);
        const completionTokens = int(50, 4_000);
        emit({ type: 'usage', promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, costUsd: Number((promptTokens * 1.25e-6 + completionTokens * 1e-5).toFixed(6)) });
      } else if (random() < 0.125 && n < EVENTS_PER_RUN - 4 && n % 20 !== 18) {
        const id = `call_${(++callNo).toString(36)}`;
        const writes = random() < 0.3;
        const args = writes ? { path: path(), content: `${sourceText(int(300, 2000))}${maybeSecret()}` } : { path: path() };
        emit({ type: 'tool_call', id, name: writes ? 'write_file' : pick(['read_file', 'grep', 'bash']), args, sideEffect: writes ? 'write' : 'read' });
        emit({ type: 'tool_result', id, status: 'ok', output: `${sourceText(int(200, 2700))}${maybeSecret()}`, truncated: false });
        n += 1;
      } else {
        const delta = `${sentence(int(20, 20 + Math.floor(280 * random() ** 2)))}${maybeSecret()}`;
        reply += delta;
        emit({ type: 'text', delta });
      }
    }
    emit({ type: 'final', text: reply.slice(-500) });
    emit({ type: 'run_end', status: 'success', exitCode: 0 });
  }
  return { bytes: Buffer.from(`${lines.join('\n')}\n`), events: lines.length, runs, secrets };
}
