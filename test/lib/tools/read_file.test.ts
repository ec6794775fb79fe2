import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { MAX_OUTPUT_BYTES } from '../../../lib/tools/output.js';
import { readFile } from '../../../lib/tools/read_file.js';

const context = (cwd: string) => ({ cwd, signal: new AbortController().signal });
/** The text read_file shows. */
const read = async (args: Parameters<typeof readFile.run>[0], cwd: string) => (await readFile.run(args, context(cwd))).output;
const numberedLines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${String(from + i).padStart(6)}\tline ${from + i}`);
const fileOfLines = (count: number) => numberedLines(1, count).map((line) => line.split('\t')[1]).join('\n') + '\n';

t.test('shows the file numbered like cat -n', async (t) => {
  const dir = t.testdir({ 'poem.txt': 'roses\r\n\tviolets\n\nend' });
  t.equal(await read({ path: 'poem.txt' }, dir), '     1\troses\n     2\t\tviolets\n     3\t\n     4\tend');
});

t.test('start_line and end_line pick a range', async (t) => {
  const dir = t.testdir({ 'ten.txt': fileOfLines(10) });
  t.equal(await read({ path: 'ten.txt', start_line: 3, end_line: 5 }, dir), numberedLines(3, 5).join('\n'));
  t.equal(await read({ path: 'ten.txt', start_line: 9 }, dir), numberedLines(9, 10).join('\n'));
  t.equal(await read({ path: 'ten.txt', end_line: 50 }, dir), numberedLines(1, 10).join('\n'));
});

t.test('max_lines stops early and says where to continue', async (t) => {
  const dir = t.testdir({ 'ten.txt': fileOfLines(10) });
  t.equal(
    await read({ path: 'ten.txt', start_line: 2, max_lines: 3 }, dir),
    [...numberedLines(2, 4), '(Showing lines 2-4; the file goes on. Read more with start_line 5.)'].join('\n'),
  );
  t.equal(await read({ path: 'ten.txt', start_line: 8, max_lines: 3 }, dir), numberedLines(8, 10).join('\n'), 'no note when the file ends');
});

t.test('shows at most 2000 lines by default', async (t) => {
  const dir = t.testdir({ 'long.txt': fileOfLines(2500) });
  const lines = (await read({ path: 'long.txt' }, dir)).split('\n');
  t.equal(lines.length, 2001);
  t.equal(lines[1999], numberedLines(2000, 2000)[0]);
  t.match(lines[2000], /start_line 2001/);
});

t.test('stops before the line that would pass 64 KiB, within the cap, and says where to go on', async (t) => {
  const dir = t.testdir({});
  const longLine = 'x'.repeat(1000);
  writeFileSync(join(dir, 'wide.txt'), `${longLine}\n`.repeat(1000)); // ~1 MB in 1000 lines
  const { output, truncated } = await readFile.run({ path: 'wide.txt' }, context(dir));
  t.ok(Buffer.byteLength(output) <= MAX_OUTPUT_BYTES, 'within the cap, so the note is not cut off');
  t.ok(Buffer.byteLength(output) > MAX_OUTPUT_BYTES - 2000, 'but as much as fits');
  t.match(output, /\n\(Showing lines 1-64; the file goes on\. Read more with start_line 65\.\)$/);
  t.equal(truncated, true);
});

t.test('a line longer than the output cap is cut, the cut said; a line after shorter ones waits for its own read', async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, 'minified.js'), `short\n${'€'.repeat(40_000)}\nafter\n`); // line 2: 120,000 bytes
  const first = await readFile.run({ path: 'minified.js' }, context(dir));
  t.equal(first.output, '     1\tshort\n(Showing lines 1-1; the file goes on. Read more with start_line 2.)');
  t.equal(first.truncated, true);
  const second = await readFile.run({ path: 'minified.js', start_line: 2 }, context(dir));
  const [line, note] = second.output.split('\n');
  t.match(line, /^     2\t(€)+$/);
  t.ok(Buffer.byteLength(second.output) <= MAX_OUTPUT_BYTES);
  t.ok(Buffer.byteLength(line!) > MAX_OUTPUT_BYTES - 1000, 'as much of the line as fits');
  t.match(note, /^\(Line 2 is cut: it is longer than the \d+ bytes read_file shows at once, and only its start is shown\. Lines after it, if any, start at start_line 3\.\)$/);
  t.equal(second.truncated, true);
  t.equal((await read({ path: 'minified.js', start_line: 3 }, dir)), '     3\tafter');
});

t.test('one line of 600 MB (more than a string can hold) is cut at once, not a crash', async (t) => {
  const dir = t.testdir({});
  const path = join(dir, 'huge.txt');
  writeFileSync(path, 'a'.repeat(8192));
  execFileSync('truncate', ['-s', '600M', path]); // sparse: the rest of the line is NUL bytes, past the binary sniff
  const { output, truncated } = await readFile.run({ path: 'huge.txt' }, context(dir));
  t.match(output, /^     1\ta{8192}\0+\n\(Line 1 is cut: /);
  t.ok(Buffer.byteLength(output) <= MAX_OUTPUT_BYTES);
  t.equal(truncated, true);
});

t.test('an empty file says so', async (t) => {
  const dir = t.testdir({ 'empty.txt': '' });
  t.equal(await read({ path: 'empty.txt' }, dir), '(File "empty.txt" is empty.)');
});

t.test('fails for a missing file, a directory, a binary file and a bad range', async (t) => {
  const dir = t.testdir({ src: {}, 'three.txt': 'a\nb\nc\n' });
  writeFileSync(join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
  await t.rejects(read({ path: 'nope.txt' }, dir), { message: 'Path "nope.txt" does not exist.' });
  await t.rejects(read({ path: 'src' }, dir), { message: /"src" is a directory/ });
  await t.rejects(read({ path: 'logo.png' }, dir), { message: /"logo.png" is a binary file/ });
  await t.rejects(read({ path: 'three.txt', start_line: 4 }, dir), {
    message: 'start_line 4 is past the end of "three.txt", which has 3 lines.',
  });
  await t.rejects(read({ path: 'three.txt', start_line: 3, end_line: 2 }, dir), { message: 'end_line (2) is before start_line (3).' });
});

t.test('refuses special files such as FIFOs, and symlinks to them, at once', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({});
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  symlinkSync('pipe', join(dir, 'pipe-link'));
  for (const path of ['pipe', 'pipe-link']) {
    await t.rejects(read({ path }, dir), { message: `"${path}" is a FIFO (named pipe), not a regular file: the file tools read regular files only, never FIFOs, sockets or devices.` });
  }
  await t.rejects(read({ path: 'null' }, '/dev'), { message: '"null" is a character device, not a regular file: the file tools read regular files only, never FIFOs, sockets or devices.' });
});

t.test('refuses paths outside the working directory', async (t) => {
  const dir = t.testdir({ root: { 'ok.txt': 'ok' }, outside: { 'secret.txt': 'secret' } });
  const root = join(dir, 'root');
  symlinkSync('../outside/secret.txt', join(root, 'sneaky.txt'));
  for (const path of ['../outside/secret.txt', join(dir, 'outside/secret.txt'), 'sneaky.txt']) {
    await t.rejects(read({ path }, root), { message: `Path "${path}" is outside the working directory.` });
  }
});
