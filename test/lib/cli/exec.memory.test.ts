import t from 'tap';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fakeApi } from '../../helpers/sse-server.js';
import { openaiStream } from '../../helpers/wire.js';
import { ZERO, cleanEnv } from '../../helpers/zero.js';

// What a huge answer holds in a whole `zero exec` process, against a loopback OpenAI server. The heap is capped
// (--max-old-space-size): V8 collects everything it can before it gives up, so the run fails only if it holds
// more than the cap, whatever garbage it made, and it takes no longer than without the cap.

const MiB = 2 ** 20;

t.test('a 32 MiB answer, with its session, in a heap of 64 MiB: the final whole on stdout and in the session', async (t) => {
  const piece = 'lorem ipsum "dolor" sit amet\n'.repeat(600).slice(0, 16 * 1024);
  const size = 32 * MiB;
  const api = await fakeApi([{ sse: openaiStream({ text: Array.from({ length: size / piece.length }, () => piece) }) }]);
  t.teardown(() => api.close());
  const dir = t.testdir({});
  const home = join(dir, '.home');
  const env = cleanEnv({ OPENAI_API_KEY: 'sk-test-memory-000000000000', OPENAI_BASE_URL: `${api.url}/v1`, ZERO_HOME: home });
  // The answer is spooled (lib/files/text-spool.ts), not held: before, it was held as its deltas and then as one
  // string too, and the run needed 2.75–3.25 times the answer (88–104 MiB here). Node, zero's modules and, under tap,
  // its process hooks (every module's source map) take 30–40 MiB; at 48 MiB the run passes, slowly.
  const args = ['--max-old-space-size=64', ZERO, 'exec', '--provider', 'openai', '-m', 'gpt-4.1', '-o', 'stream-json', '-C', dir, 'Write a lot.'];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let final: { text?: string } | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.includes('"type":"final"')) final = JSON.parse(line) as { text?: string };
  }
  const code = await new Promise((resolve) => child.once('close', resolve));
  t.equal(code, 0, 'not out of memory');
  t.notMatch(stderr, /heap out of memory/);
  t.ok(final?.text === piece.repeat(size / piece.length), 'the whole answer in final');
  const [session] = readdirSync(join(home, 'sessions'));
  const stored = readFileSync(join(home, 'sessions', session!, 'events.jsonl'), 'utf8').split('\n').find((line) => line.includes('"type":"final"'));
  t.ok(stored && (JSON.parse(stored) as { text: string }).text === final?.text, 'the session holds the same final');
});
