import t from 'tap';
import { Readable, Transform } from 'node:stream';
import { runChain } from '../../../lib/cli/command.js';
import type { CliIO } from '../../../lib/cli/io.js';

const io = { env: {}, stderr: { write: () => true } } as unknown as CliIO;

async function text(readable: Readable): Promise<string> {
  let out = '';
  for await (const chunk of readable) out += chunk;
  return out;
}

t.test('the chain to bytes, and the exit code', async (t) => {
  const upper = new Transform({ transform: (chunk, _e, cb) => cb(null, String(chunk).toUpperCase()) });
  const { readable, exitCode } = runChain(io, 'text', Readable.from(['a', 'b']), upper, async () => 5);
  t.equal(await text(readable), 'AB');
  t.equal(await exitCode, 5);
});

t.test('a failing stage: the failure is reported, with its exit code', async (t) => {
  const failing = new Transform({ transform: (_chunk, _e, cb) => cb(Object.assign(new Error('boom'), {})) });
  const { readable, exitCode } = runChain(io, 'stream-json', Readable.from(['a']), failing, async () => 0, { runId: () => 'run_x' });
  const out = await text(readable);
  t.match(out, /"type":"error","runId":"run_x"/);
  t.match(out, /"type":"run_end"/);
  t.equal(await exitCode, 1);
});

t.test('a failing stage: reported in the schema version given', async (t) => {
  const failing = new Transform({ transform: (_chunk, _e, cb) => cb(new Error('boom')) });
  const { readable } = runChain(io, 'stream-json', Readable.from(['a']), failing, async () => 0, { runId: () => 'run_20261201093003_s1gt01', schemaVersion: () => 2 });
  const lines = (await text(readable)).trimEnd().split('\n').map((line) => JSON.parse(line));
  t.match(lines, [{ schemaVersion: 2, type: 'error' }, { schemaVersion: 2, type: 'run_end' }]);
});
