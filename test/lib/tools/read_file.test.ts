import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { MAX_OUTPUT_BYTES } from '../../../lib/tools/output.js';
import { readFile } from '../../../lib/tools/read_file.js';

const context = (cwd: string) => ({ cwd, signal: new AbortController().signal });
const numberedLines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${String(from + i).padStart(6)}\tline ${from + i}`);
const fileOfLines = (count: number) => numberedLines(1, count).map((line) => line.split('\t')[1]).join('\n') + '\n';

t.test('shows the file numbered like cat -n', async (t) => {
  const dir = t.testdir({ 'poem.txt': 'roses\r\n\tviolets\n\nend' });
  t.equal(await readFile.run({ path: 'poem.txt' }, context(dir)), '     1\troses\n     2\t\tviolets\n     3\t\n     4\tend');
});

t.test('start_line and end_line pick a range', async (t) => {
  const dir = t.testdir({ 'ten.txt': fileOfLines(10) });
  t.equal(await readFile.run({ path: 'ten.txt', start_line: 3, end_line: 5 }, context(dir)), numberedLines(3, 5).join('\n'));
  t.equal(await readFile.run({ path: 'ten.txt', start_line: 9 }, context(dir)), numberedLines(9, 10).join('\n'));
  t.equal(await readFile.run({ path: 'ten.txt', end_line: 50 }, context(dir)), numberedLines(1, 10).join('\n'));
});

t.test('max_lines stops early and says where to continue', async (t) => {
  const dir = t.testdir({ 'ten.txt': fileOfLines(10) });
  t.equal(
    await readFile.run({ path: 'ten.txt', start_line: 2, max_lines: 3 }, context(dir)),
    [...numberedLines(2, 4), '(Showing lines 2-4; the file goes on. Read more with start_line 5.)'].join('\n'),
  );
  t.equal(await readFile.run({ path: 'ten.txt', start_line: 8, max_lines: 3 }, context(dir)), numberedLines(8, 10).join('\n'), 'no note when the file ends');
});

t.test('shows at most 2000 lines by default', async (t) => {
  const dir = t.testdir({ 'long.txt': fileOfLines(2500) });
  const lines = (await readFile.run({ path: 'long.txt' }, context(dir))).split('\n');
  t.equal(lines.length, 2001);
  t.equal(lines[1999], numberedLines(2000, 2000)[0]);
  t.match(lines[2000], /start_line 2001/);
});

t.test('stops reading once the output passes 64 KiB', async (t) => {
  const dir = t.testdir({});
  const longLine = 'x'.repeat(1000);
  writeFileSync(join(dir, 'wide.txt'), `${longLine}\n`.repeat(1000)); // ~1 MB in 1000 lines
  const output = await readFile.run({ path: 'wide.txt' }, context(dir));
  t.ok(Buffer.byteLength(output) > MAX_OUTPUT_BYTES, 'enough for the registry to flag truncation');
  t.ok(Buffer.byteLength(output) < MAX_OUTPUT_BYTES + 2 * 1100, 'but not the whole file');
});

t.test('an empty file says so', async (t) => {
  const dir = t.testdir({ 'empty.txt': '' });
  t.equal(await readFile.run({ path: 'empty.txt' }, context(dir)), '(File "empty.txt" is empty.)');
});

t.test('fails for a missing file, a directory, a binary file and a bad range', async (t) => {
  const dir = t.testdir({ src: {}, 'three.txt': 'a\nb\nc\n' });
  writeFileSync(join(dir, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
  await t.rejects(readFile.run({ path: 'nope.txt' }, context(dir)), { message: 'Path "nope.txt" does not exist.' });
  await t.rejects(readFile.run({ path: 'src' }, context(dir)), { message: /"src" is a directory/ });
  await t.rejects(readFile.run({ path: 'logo.png' }, context(dir)), { message: /"logo.png" is a binary file/ });
  await t.rejects(readFile.run({ path: 'three.txt', start_line: 4 }, context(dir)), {
    message: 'start_line 4 is past the end of "three.txt", which has 3 lines.',
  });
  await t.rejects(readFile.run({ path: 'three.txt', start_line: 3, end_line: 2 }, context(dir)), { message: 'end_line (2) is before start_line (3).' });
});

t.test('refuses special files such as FIFOs', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({});
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  await t.rejects(readFile.run({ path: 'pipe' }, context(dir)), { message: '"pipe" is not a regular file.' });
});

t.test('refuses paths outside the working directory', async (t) => {
  const dir = t.testdir({ root: { 'ok.txt': 'ok' }, outside: { 'secret.txt': 'secret' } });
  const root = join(dir, 'root');
  symlinkSync('../outside/secret.txt', join(root, 'sneaky.txt'));
  for (const path of ['../outside/secret.txt', join(dir, 'outside/secret.txt'), 'sneaky.txt']) {
    await t.rejects(readFile.run({ path }, context(root)), { message: `Path "${path}" is outside the working directory.` });
  }
});
