import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import t from 'tap';
import { inputFile, openInputFile, readPromptFile } from '../../../lib/cli/input-files.js';
import { STDIN } from '../../../lib/cli/options.js';
import { CancelledError } from '../../../lib/errors.js';

const reading = { maxBytes: 1 << 20 };
const noStdin = new PassThrough();

t.test('-f /dev/stdin is -f -', async (t) => {
  t.equal(inputFile('/dev/stdin'), STDIN);
  t.equal(inputFile('/tmp/prompt.txt'), '/tmp/prompt.txt');
  t.equal(inputFile(undefined), undefined);
});

t.test('the prompt from a file, or from stdin, a character split across chunks included', async (t) => {
  const dir = t.testdir({ 'prompt.txt': 'fix the € test\n' });
  t.equal(await readPromptFile(join(dir, 'prompt.txt'), noStdin, reading), 'fix the € test\n');
  const stdin = new PassThrough();
  const euro = Buffer.from('€');
  stdin.write(Buffer.concat([Buffer.from('fix the '), euro.subarray(0, 1)]));
  stdin.end(Buffer.concat([euro.subarray(1), Buffer.from(' test\n')]));
  t.equal(await readPromptFile(STDIN, stdin, reading), 'fix the € test\n');
  t.equal(await readPromptFile(STDIN, new PassThrough().end(), reading), '', 'an empty stdin is empty text');
});

t.test('the prompt from a FIFO whose writer comes later, as with a named pipe or <(cmd)', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({});
  const fifo = join(dir, 'prompt.fifo');
  execFileSync('mkfifo', [fifo]);
  const prompt = readPromptFile(fifo, noStdin, reading);
  const writer = await open(fifo, 'w');
  await writer.writeFile('from a pipe');
  await writer.close();
  t.equal(await prompt, 'from a pipe');
});

// -f /dev/zero read 633 MB before it failed; `cat /dev/zero | zero exec` never ended.
t.test('a prompt longer than --max-line-bytes is a usage error at the limit: /dev/zero, an endless stdin', { skip: process.platform === 'win32' }, async (t) => {
  await t.rejects(readPromptFile('/dev/zero', noStdin, reading), {
    code: 'usage_error',
    message: 'The prompt from --file /dev/zero is longer than 1048576 bytes (--max-line-bytes); pass a shorter one, or raise --max-line-bytes.',
  });
  const endless = new PassThrough();
  const chunk = Buffer.alloc(64 * 1024, 'y');
  const feed = setInterval(() => endless.write(chunk), 1);
  t.teardown(() => clearInterval(feed));
  await t.rejects(readPromptFile(STDIN, endless, reading), { code: 'usage_error', message: /^The prompt from stdin is longer than 1048576 bytes/ });
  t.ok(endless.destroyed, 'stdin is let go');
});

t.test('a missing file or a directory is a usage error naming it', async (t) => {
  const dir = t.testdir({ sub: {} });
  await t.rejects(readPromptFile(join(dir, 'none.txt'), noStdin, reading), { code: 'usage_error', message: `Cannot read --file ${join(dir, 'none.txt')}: ENOENT (No such file or directory)` });
  await t.rejects(readPromptFile(join(dir, 'sub'), noStdin, reading), { code: 'usage_error', message: `Cannot read --file ${join(dir, 'sub')}: EISDIR (Illegal operation on a directory)` });
  await t.rejects(openInputFile(join(dir, 'sub')), { code: 'usage_error', message: /EISDIR/ });
});

// A FIFO nobody writes to held a libuv pool thread in open(), and process.exit waited for it: not even SIGTERM ended zero.
t.test('a read that waits for a writer is stopped by the setup signal, with its reason', { skip: process.platform === 'win32', timeout: 10_000 }, async (t) => {
  const dir = t.testdir({});
  const fifo = join(dir, 'silent.fifo');
  execFileSync('mkfifo', [fifo]);
  const controller = new AbortController();
  const prompt = readPromptFile(fifo, noStdin, { ...reading, signal: controller.signal });
  setTimeout(() => controller.abort(new CancelledError('SIGTERM')), 50);
  await t.rejects(prompt, { code: 'cancelled', message: 'Cancelled by SIGTERM.' });
});

t.test('--file as stream-json input: a FIFO is streamed as its writer writes', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({});
  const fifo = join(dir, 'events.fifo');
  execFileSync('mkfifo', [fifo]);
  const source = await openInputFile(fifo);
  const writer = await open(fifo, 'w');
  const chunks = source[Symbol.asyncIterator]();
  await writer.write('{"type":"prompt","content":"one"}\n');
  t.equal(String((await chunks.next()).value), '{"type":"prompt","content":"one"}\n', 'a line as soon as it is written');
  await writer.write('{"type":"prompt","content":"two"}\n');
  t.equal(String((await chunks.next()).value), '{"type":"prompt","content":"two"}\n');
  await writer.close();
  t.equal((await chunks.next()).done, true, 'the end when the writer closes');
});

t.test('a regular --file for stream-json is streamed whole', async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, 'events.jsonl'), '{"type":"prompt","content":"one"}\n');
  const chunks: Buffer[] = [];
  for await (const chunk of await openInputFile(join(dir, 'events.jsonl'))) chunks.push(chunk as Buffer);
  t.equal(Buffer.concat(chunks).toString(), '{"type":"prompt","content":"one"}\n');
});
