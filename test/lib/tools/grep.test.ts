import { execFileSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createGrep, grep } from '../../../lib/tools/grep.js';
import { MAX_OUTPUT_BYTES } from '../../../lib/tools/output.js';
import type { ToolReport } from '../../../lib/tools/types.js';
import { oneLongLine, SLOW_PATTERN } from '../../helpers/long_line.js';

const context = (cwd: string) => ({ cwd, signal: new AbortController().signal });

const project = {
  'notes.md': 'TODO: write docs\n',
  src: { 'b.ts': 'const b = 1;\n// TODO fix b\n', 'a.ts': 'export const a = 1;\n', lib: { 'c.js': 'let x; // TODO\n' } },
  node_modules: { dep: { 'index.js': '// TODO vendored\n' } },
  '.git': { 'COMMIT_EDITMSG': 'TODO in git\n' },
};

t.test('prints path:line:text for every match, files in sorted order', async (t) => {
  const dir = t.testdir(project);
  t.equal(
    await grep.run({ pattern: 'TODO' }, context(dir)),
    ['notes.md:1:TODO: write docs', 'src/b.ts:2:// TODO fix b', 'src/lib/c.js:1:let x; // TODO'].join('\n'),
  );
  t.equal(await grep.run({ pattern: '^export\\s+const \\w+ = \\d' }, context(dir)), 'src/a.ts:1:export const a = 1;');
});

t.test('path narrows the search to a directory or a single file', async (t) => {
  const dir = t.testdir(project);
  t.equal(await grep.run({ pattern: 'TODO', path: 'src/lib' }, context(dir)), 'src/lib/c.js:1:let x; // TODO');
  t.equal(await grep.run({ pattern: 'const', path: 'src/b.ts' }, context(dir)), 'src/b.ts:1:const b = 1;');
  t.equal(await grep.run({ pattern: 'TODO', path: 'node_modules/dep/index.js' }, context(dir)), 'node_modules/dep/index.js:1:// TODO vendored');
});

t.test('glob filters file names, or paths relative to the searched directory', async (t) => {
  const dir = t.testdir(project);
  t.equal(await grep.run({ pattern: 'TODO', glob: '*.ts' }, context(dir)), 'src/b.ts:2:// TODO fix b');
  t.equal(await grep.run({ pattern: 'TODO', glob: 'lib/*' }, context(dir)), 'No matches for /TODO/ in ".".');
  t.equal(await grep.run({ pattern: 'TODO', path: 'src', glob: 'lib/*' }, context(dir)), 'src/lib/c.js:1:let x; // TODO');
});

t.test('no match is a clear message, not an error', async (t) => {
  const dir = t.testdir(project);
  t.equal(await grep.run({ pattern: 'FIXME', path: 'src' }, context(dir)), 'No matches for /FIXME/ in "src".');
});

t.test('skips binary files in a walk and refuses one named directly', async (t) => {
  const dir = t.testdir({ 'text.txt': 'needle\n' });
  writeFileSync(join(dir, 'blob.bin'), Buffer.from('needle\0needle\n'));
  t.equal(await grep.run({ pattern: 'needle' }, context(dir)), 'text.txt:1:needle');
  await t.rejects(grep.run({ pattern: 'needle', path: 'blob.bin' }, context(dir)), { message: /"blob.bin" is a binary file/ });
});

t.test('skips special files such as FIFOs, and symlinks to them, instead of blocking on them, and says so', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({ 'text.txt': 'needle\n' });
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  symlinkSync('pipe', join(dir, 'pipe-link'));
  t.equal(
    await grep.run({ pattern: 'needle' }, context(dir)),
    'text.txt:1:needle\n(Skipped 2 special files, which the file tools never read: pipe (a FIFO (named pipe)), pipe-link (a FIFO (named pipe)).)',
  );
});

t.test('a walk skips quietly what it cannot open (a dangling symlink); named directly, it is an error', async (t) => {
  const dir = t.testdir({ 'text.txt': 'needle\n' });
  symlinkSync('gone.txt', join(dir, 'dangling'));
  t.equal(await grep.run({ pattern: 'needle' }, context(dir)), 'text.txt:1:needle');
  await t.rejects(grep.run({ pattern: 'needle', path: 'dangling' }, context(dir)), { message: 'Path "dangling" does not exist.' });
});

// On a FIFO nobody writes to, the binary check's open() used to wait forever, deaf to the time limit and to SIGINT.
t.test('a FIFO named as the path, or a symlink to one, is refused at once', { skip: process.platform === 'win32', timeout: 10_000 }, async (t) => {
  const dir = t.testdir({});
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  symlinkSync('pipe', join(dir, 'pipe-link'));
  for (const path of ['pipe', 'pipe-link']) {
    await t.rejects(createGrep(2000).run({ pattern: 'x', path }, context(dir)), {
      message: `"${path}" is a FIFO (named pipe), not a regular file: the file tools read regular files only, never FIFOs, sockets or devices.`,
    });
  }
});

t.test('one line of 600 MB: searched in its first 16 MiB, said, and the output within the cap, not a crash', { skip: process.platform === 'win32', timeout: 60_000 }, async (t) => {
  const dir = t.testdir({ 'small.txt': 'needle\n' });
  const path = join(dir, 'huge.txt');
  writeFileSync(path, `needle ${'a'.repeat(8192)}`);
  execFileSync('truncate', ['-s', '600M', path]); // sparse: the rest of the line is NUL bytes, past the binary sniff
  const { output, truncated } = (await grep.run({ pattern: 'needle' }, context(dir))) as ToolReport;
  t.match(output, /^huge\.txt:1:needle a{8192}\0+\n\(Lines longer than 16 MiB were searched in their first 16 MiB only: huge\.txt:1\.\)$/);
  t.ok(Buffer.byteLength(output) <= MAX_OUTPUT_BYTES, 'the hit is cut to make room for the note');
  t.equal(truncated, true);
});

t.test('an invalid regular expression is an error naming it', async (t) => {
  const dir = t.testdir(project);
  await t.rejects(grep.run({ pattern: 'foo(' }, context(dir)), { message: /^Invalid regular expression "foo\(": / });
});

// A backtracking engine needs about 2^n steps for this pattern on n "a"s and a "!": days for 60.
// The timeout only turns a hang into a failure; a linear-time match takes milliseconds.
t.test('a pattern that backtracks catastrophically matches in linear time, with the right answer', { timeout: 20_000 }, async (t) => {
  const dir = t.testdir({ 'long.txt': `${'a'.repeat(60)}!\n`, 'short.txt': 'x\naaa\n' });
  t.equal(await grep.run({ pattern: '(a+)+$' }, context(dir)), 'short.txt:2:aaa');
  t.equal(await grep.run({ pattern: '(a+)+!$' }, context(dir)), `long.txt:1:${'a'.repeat(60)}!`);
});

t.test('patterns RE2 cannot run are errors that say grep uses RE2 syntax', async (t) => {
  const dir = t.testdir(project);
  for (const pattern of ['(a)\\1', 'TODO(?= fix)', 'TODO(?!:)']) {
    await t.rejects(grep.run({ pattern }, context(dir)), { message: /^Invalid regular expression .*grep uses RE2 syntax, which is JavaScript's without backreferences/ }, pattern);
  }
});

t.test('JavaScript spellings RE2 lacks are translated: \\u escapes; lookbehind works', async (t) => {
  const dir = t.testdir({ 'accents.txt': 'café\nnaïve\n', 'refs.ts': 'a.b = 1;\nb = 2;\n' });
  t.equal(await grep.run({ pattern: 'caf\\u00e9', path: 'accents.txt' }, context(dir)), 'accents.txt:1:café');
  t.equal(await grep.run({ pattern: 'na\\u{ef}ve', path: 'accents.txt' }, context(dir)), 'accents.txt:2:naïve');
  t.equal(await grep.run({ pattern: '\\\\u00e9', path: 'accents.txt' }, context(dir)), 'No matches for /\\\\u00e9/ in "accents.txt".', 'an escaped backslash stays one');
  t.equal(await grep.run({ pattern: '(?<=\\.)b', path: 'refs.ts' }, context(dir)), 'refs.ts:1:a.b = 1;');
});

t.test('a search that outlasts its time limit is an error saying so, with the matches found so far', async (t) => {
  const files: Record<string, string> = {};
  // Hundreds of files to open and read: far more than a 1 ms limit allows.
  for (let index = 0; index < 300; index++) files[`f${String(index).padStart(3, '0')}.txt`] = 'needle\n'.repeat(50);
  const dir = t.testdir(files);
  const error = await grep.run({ pattern: 'needle' }, context(dir)).then(() => undefined, (e: Error) => e);
  t.equal(error, undefined, 'the default limit is ample');
  await t.rejects(createGrep(1).run({ pattern: 'needle' }, context(dir)), { message: /^grep stopped after 0\.001 s, its time limit: search a narrower path or glob\./ });
});

t.test('a glob with too many wildcards to match quickly is refused', async (t) => {
  const dir = t.testdir({ [`${'a'.repeat(200)}.txt`]: 'needle\n' });
  await t.rejects(grep.run({ pattern: 'needle', glob: '*a*a*a*ab' }, context(dir)), { message: /^Glob "\*a\*a\*a\*ab" has 4 "\*" in the path segment/ });
  t.equal(await grep.run({ pattern: 'needle', glob: '*a*a*.txt' }, context(dir)), `${'a'.repeat(200)}.txt:1:needle`);
});

t.test('never reads outside the working directory', async (t) => {
  const dir = t.testdir({ root: { 'inside.txt': 'needle inside\n', real: { 'f.txt': 'needle linked\n' } }, outside: { 'secret.txt': 'needle secret\n' } });
  const root = join(dir, 'root');
  symlinkSync('../outside/secret.txt', join(root, 'leak.txt'));
  symlinkSync('../outside', join(root, 'leakdir'));
  symlinkSync('real/f.txt', join(root, 'alias.txt'));
  symlinkSync('real', join(root, 'alias-dir'));
  t.equal(
    await grep.run({ pattern: 'needle' }, context(root)),
    ['alias.txt:1:needle linked', 'inside.txt:1:needle inside', 'real/f.txt:1:needle linked'].join('\n'),
    'symlinked files inside are searched; symlinked directories and links pointing out are not',
  );
  for (const path of ['..', join(dir, 'outside'), 'leak.txt', 'leakdir']) {
    await t.rejects(grep.run({ pattern: 'needle', path }, context(root)), { message: `Path "${path}" is outside the working directory.` });
  }
});

t.test('stops once the output passes 64 KiB', async (t) => {
  const dir = t.testdir({});
  for (const name of ['a.txt', 'b.txt']) writeFileSync(join(dir, name), 'match this line\n'.repeat(10_000));
  const output = (await grep.run({ pattern: 'match' }, context(dir))) as string;
  t.ok(Buffer.byteLength(output) > MAX_OUTPUT_BYTES);
  t.ok(Buffer.byteLength(output) < MAX_OUTPUT_BYTES + 100);
  t.notMatch(output, /b\.txt/, 'the second file was never reached');
});

t.test('an aborted signal stops the search', async (t) => {
  const dir = t.testdir(project);
  const controller = new AbortController();
  controller.abort();
  await t.rejects(grep.run({ pattern: 'TODO' }, { cwd: dir, signal: controller.signal }), { name: 'AbortError' });
  await t.rejects(grep.run({ pattern: 'TODO', path: 'notes.md' }, { cwd: dir, signal: controller.signal }), { name: 'AbortError' });
});

// Matched on the main thread, one such line held the event loop for a minute: no timer, no SIGINT, no time limit.
t.test('a 4 MB line with a slow pattern: the main thread keeps running, and aborting ends the search', { timeout: 20_000 }, async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, 'bundle.min.js'), oneLongLine());
  const controller = new AbortController();
  let ticks = 0;
  // 100 ticks, 2 s at least: far longer than reading the file takes, so the abort comes while the line is matched.
  const timer = setInterval(() => ++ticks === 100 && controller.abort(), 20);
  t.teardown(() => clearInterval(timer));
  await t.rejects(grep.run({ pattern: SLOW_PATTERN }, { cwd: dir, signal: controller.signal }), { name: 'AbortError' });
  t.equal(ticks, 100, 'timers ran during the search, and the abort ended it at once');
});

t.test('a 4 MB line with a slow pattern: the time limit ends the search, with the matches found before it', { timeout: 20_000 }, async (t) => {
  const dir = t.testdir({ 'a.txt': 'version 1\n' });
  writeFileSync(join(dir, 'b.min.js'), oneLongLine());
  // This first search also starts grep's worker thread (seconds under tap's TypeScript loader) and leaves it
  // idle for the next one, so that the next search spends its 0.5 s matching.
  t.equal(await grep.run({ pattern: SLOW_PATTERN, path: 'a.txt' }, context(dir)), 'a.txt:1:version 1');
  await t.rejects(createGrep(500).run({ pattern: SLOW_PATTERN }, context(dir)), {
    message: 'grep stopped after 0.5 s, its time limit: search a narrower path or glob.\nMatches so far:\na.txt:1:version 1',
  });
});
