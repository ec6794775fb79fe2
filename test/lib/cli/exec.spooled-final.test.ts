import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText } from '../../../lib/redaction/index.js';
import { fakeApi } from '../../helpers/sse-server.js';
import { openaiStream } from '../../helpers/wire.js';
import { ZERO, cleanEnv, jsonLines } from '../../helpers/zero.js';

// A spooled final (past 4 Mi characters) is redacted as it is written. Token-dense text is the stream redactor's
// slowest (~0.2 s of CPU a MiB): redacted in one pass, as before, 4.5 MiB of it held the event loop for seconds.

const MiB = 2 ** 20;
const lines: string[] = [];
for (let length = 0; length < 4.5 * MiB; length += lines.at(-1)!.length) lines.push(`key=sk-${randomBytes(24).toString('hex')}\n`);
const answer = lines.join('');
const deltas = Array.from({ length: Math.ceil(answer.length / (64 * 1024)) }, (_, index) => answer.slice(index * 64 * 1024, (index + 1) * 64 * 1024));

type Run = { code: number | null; stdout: string; journal: string; finalToExitMs: number; signalToExitMs?: number };

/**
 * zero exec against a loopback OpenAI server giving `answer`; with `interrupt`, SIGINT once the final's first bytes
 * are out (`-o text`, which writes no final: once the answer's last line is, while the session stores the final).
 */
async function run(t: Test, interrupt: boolean, format: 'stream-json' | 'text' = 'stream-json'): Promise<Run> {
  const api = await fakeApi([{ sse: openaiStream({ text: deltas }) }]);
  t.teardown(() => api.close());
  const dir = t.testdir({});
  const home = join(dir, '.home');
  // a key none of whose 8-character runs can be in the answer's hex: a credential in use is redacted wherever it appears
  const env = cleanEnv({ OPENAI_API_KEY: 'sk-test-spooled-zzzzzzzzzzzz', OPENAI_BASE_URL: `${api.url}/v1`, ZERO_HOME: home });
  const child = spawn(process.execPath, [ZERO, 'exec', '--provider', 'openai', '-m', 'gpt-4.1', '-o', format, '-C', dir, 'Write keys.'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const chunks: string[] = [];
  let finalAt: number | undefined;
  let signalAt: number | undefined;
  let newlines = 0;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    chunks.push(chunk);
    newlines += chunk.split('\n').length - 1;
    const finalOut = format === 'text' ? newlines >= lines.length : chunk.includes('"type":"final"');
    if (finalAt !== undefined || !finalOut) return;
    finalAt = performance.now();
    if (!interrupt) return;
    signalAt = performance.now();
    child.kill('SIGINT');
  });
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const exitAt = performance.now();
  const [session] = readdirSync(join(home, 'sessions'));
  const journal = readFileSync(join(home, 'sessions', session!, 'events.jsonl'), 'utf8');
  return { code, stdout: chunks.join(''), journal, finalToExitMs: exitAt - (finalAt ?? exitAt), ...(signalAt === undefined ? {} : { signalToExitMs: exitAt - signalAt }) };
}

const finalText = (events: Record<string, unknown>[]) => events.find((event) => event.type === 'final')?.text as string | undefined;
/** A key of the answer (its hex), or a piece of one, out in the clear. */
const leaks = (text: string) => /sk-[0-9a-f]{6}|[0-9a-f]{16}/.test(text);

t.test('a token-dense spooled final: whole when left alone; SIGINT while it is written ends the run cancelled, promptly', async (t) => {
  const whole = await run(t, false);
  const redacted = redactText(answer);
  t.equal(whole.code, 0);
  const events = jsonLines(whole.stdout);
  t.ok(finalText(events) === redacted, 'the final byte for byte what redactText of the whole gives');
  t.ok(finalText(jsonLines(whole.journal)) === redacted, 'and the same in events.jsonl');
  t.notOk(leaks(whole.stdout) || leaks(whole.journal), 'no key on stdout or in the session');

  const cut = await run(t, true);
  t.equal(cut.code, 130, 'exit 130');
  const out = jsonLines(cut.stdout);
  t.same(out.slice(-2).map((event) => [event.type, event.code ?? event.status, event.exitCode]), [['error', 'cancelled', undefined], ['run_end', 'error', 130]]);
  const text = finalText(out) ?? '';
  t.ok(text.length < redacted.length && redacted.startsWith(text), 'the final is a valid line, its text the redaction cut short');
  const stored = jsonLines(cut.journal);
  t.same(stored.at(-1), out.at(-1), 'the session ends with the same run_end');
  t.ok(finalText(stored) === text, 'and holds the same final');
  t.notOk(leaks(cut.stdout) || leaks(cut.journal), 'no key on stdout or in the session');
  // a pass over the whole text takes what the uncancelled run took from the final's first bytes to its exit
  t.ok(cut.signalToExitMs! < whole.finalToExitMs / 2, `SIGINT to exit ${Math.round(cut.signalToExitMs!)} ms, the whole final ${Math.round(whole.finalToExitMs)} ms`);
});

t.test('-o text with a session: SIGINT while the session stores the spooled final ends the run cancelled there too', async (t) => {
  const cut = await run(t, true, 'text');
  t.equal(cut.code, 130, 'exit 130, not 0');
  const stored = jsonLines(cut.journal);
  t.same(stored.slice(-2).map((event) => [event.type, event.code ?? event.status, event.exitCode]), [['error', 'cancelled', undefined], ['run_end', 'error', 130]], 'the session says the run was cancelled');
  const text = finalText(stored) ?? '';
  const redacted = redactText(answer);
  t.ok(text.length < redacted.length && redacted.startsWith(text), 'and holds the final as far as it was stored');
  t.notOk(leaks(cut.stdout) || leaks(cut.journal), 'no key on stdout or in the session');
});
