import { chmodSync, existsSync, linkSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { applyPatch } from '../../../lib/tools/apply_patch.js';

const context = (cwd: string, extraRoots?: string[]) => ({ cwd, signal: new AbortController().signal, extraRoots });
const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');
const lines = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join('');

const modifyOneCreateNewDeleteGone = `diff --git a/one.txt b/one.txt
--- a/one.txt
+++ b/one.txt
@@ -1,3 +1,3 @@
 a
-b
+B
 c
--- /dev/null
+++ b/sub/new.txt
@@ -0,0 +1,2 @@
+hello
+world
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-x
-y
`;

t.test('modifies, creates and deletes files, and says what it did', async (t) => {
  const dir = t.testdir({ 'one.txt': 'a\nb\nc\n', 'gone.txt': 'x\ny\n' });
  t.same(await applyPatch.run({ patch: modifyOneCreateNewDeleteGone }, context(dir)), {
    output: 'modified one.txt (+1 -1)\ncreated sub/new.txt (+2 -0)\ndeleted gone.txt (+0 -2)',
    changedFiles: ['one.txt', 'sub/new.txt', 'gone.txt'],
  });
  t.equal(read(dir, 'one.txt'), 'a\nB\nc\n');
  t.equal(read(dir, 'sub/new.txt'), 'hello\nworld\n');
  t.notOk(existsSync(join(dir, 'gone.txt')));
});

t.test('applies several hunks, found even when the file has shifted, and names without a/ b/', async (t) => {
  const dir = t.testdir({ 'f.txt': `new first line\n${lines(20)}` });
  const patch = '--- f.txt\n+++ f.txt\n@@ -2,3 +2,3 @@\n line 2\n-line 3\n+LINE 3\n line 4\n@@ -15,3 +15,4 @@\n line 15\n line 16\n+inserted\n line 17\n';
  t.same(await applyPatch.run({ patch }, context(dir)), { output: 'modified f.txt (+2 -1)', changedFiles: ['f.txt'] });
  t.equal(read(dir, 'f.txt'), `new first line\n${lines(20).replace('line 3\n', 'LINE 3\n').replace('line 16\n', 'line 16\ninserted\n')}`);
});

t.test('all or nothing: a hunk that does not apply changes no file and is named', async (t) => {
  const dir = t.testdir({ 'first.txt': 'a\nb\nc\n', 'second.txt': lines(10) });
  const patch = `--- a/first.txt
+++ b/first.txt
@@ -1,3 +1,3 @@
 a
-b
+B
 c
--- a/second.txt
+++ b/second.txt
@@ -1,2 +1,2 @@
-line 1
+LINE 1
 line 2
@@ -7,3 +7,3 @@
 line 7
-line eight
+LINE 8
 line 9
`;
  await t.rejects(applyPatch.run({ patch }, context(dir)), {
    message: 'Hunk 2 of "second.txt" (@@ -7,3 +7,3 @@) does not apply: its context and removed lines do not match the file. No file was changed.',
  });
  t.same(readFileSync(join(dir, 'first.txt')), Buffer.from('a\nb\nc\n'), 'the first file is byte-identical');
  t.equal(read(dir, 'second.txt'), lines(10));
});

t.test('fails, changing nothing, when a file to create exists, a file to change or delete is missing, or a deletion leaves content', async (t) => {
  const dir = t.testdir({ 'one.txt': 'a\nb\nc\n', 'gone.txt': 'x\ny\nz\n', 'sub': { 'new.txt': 'already here' } });
  await t.rejects(applyPatch.run({ patch: modifyOneCreateNewDeleteGone }, context(dir)), {
    message: 'The patch creates "sub/new.txt", which already exists. No file was changed.',
  });
  await t.rejects(applyPatch.run({ patch: '--- a/missing.txt\n+++ b/missing.txt\n@@ -1 +1 @@\n-a\n+b\n' }, context(dir)), {
    message: 'Path "missing.txt" does not exist. No file was changed.',
  });
  await t.rejects(applyPatch.run({ patch: '--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-x\n-y\n' }, context(dir)), {
    message: 'The patch deletes "gone.txt", but its hunks do not remove all of the file. No file was changed.',
  });
  t.equal(read(dir, 'one.txt'), 'a\nb\nc\n');
  t.equal(read(dir, 'gone.txt'), 'x\ny\nz\n');
  t.equal(read(dir, 'sub/new.txt'), 'already here');
});

t.test('fails for a patch that cannot be parsed, changes no file, or renames', async (t) => {
  const dir = t.testdir({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  await t.rejects(applyPatch.run({ patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n-a\n+b\n' }, context(dir)), { message: /^The patch could not be parsed: / });
  await t.rejects(applyPatch.run({ patch: 'please change a.txt\n' }, context(dir)), { message: /^The patch changes no file/ });
  await t.rejects(applyPatch.run({ patch: '@@ -1 +1 @@\n-a\n+b\n' }, context(dir)), { message: /has no `--- a\/path` \/ `\+\+\+ b\/path` headers/ });
  await t.rejects(applyPatch.run({ patch: '--- a/a.txt\n+++ b/c.txt\n@@ -1 +1 @@\n-a\n+c\n' }, context(dir)), {
    message: 'The patch names two files, "a.txt" and "c.txt", in one section; to rename or copy a file, use git\'s `rename from`/`rename to` or `copy from`/`copy to` headers.',
  });
  await t.rejects(applyPatch.run({ patch: 'hello' }, context(dir)), { message: /^The patch changes no file/ });
  t.same(readdirSync(dir).sort(), ['a.txt', 'b.txt']);
  t.equal(read(dir, 'a.txt'), 'a\n');
});

const rename = (from: string, to: string, hunks = '') => `diff --git a/${from} b/${to}\nsimilarity index 90%\nrename from ${from}\nrename to ${to}\n${hunks && `--- a/${from}\n+++ b/${to}\n${hunks}`}`;
const copy = (from: string, to: string, hunks = '') => `diff --git a/${from} b/${to}\nsimilarity index 90%\ncopy from ${from}\ncopy to ${to}\n${hunks && `--- a/${from}\n+++ b/${to}\n${hunks}`}`;

t.test('git renames, with and without hunks: the new file keeps the content (patched) and the mode, the old one goes', async (t) => {
  const dir = t.testdir({ 'run.sh': 'echo a\n', 'notes.txt': 'a\nb\n' });
  chmodSync(join(dir, 'run.sh'), 0o750);
  const patch = rename('run.sh', 'bin/run.sh') + rename('notes.txt', 'docs/notes.md', '@@ -1,2 +1,2 @@\n a\n-b\n+B\n');
  t.same(await applyPatch.run({ patch }, context(dir)), {
    output: 'renamed run.sh → bin/run.sh (+0 -0)\nrenamed notes.txt → docs/notes.md (+1 -1)',
    changedFiles: ['run.sh', 'bin/run.sh', 'notes.txt', 'docs/notes.md'],
  });
  t.equal(read(dir, 'bin/run.sh'), 'echo a\n');
  t.equal(statSync(join(dir, 'bin/run.sh')).mode & 0o777, 0o750);
  t.equal(read(dir, 'docs/notes.md'), 'a\nB\n');
  t.same(readdirSync(dir).sort(), ['bin', 'docs']);
});

t.test('git copies, with and without hunks: the source stays as it was', async (t) => {
  const dir = t.testdir({ 'a.txt': 'one\ntwo\n' });
  const patch = copy('a.txt', 'b.txt') + copy('a.txt', 'c.txt', '@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n');
  t.same(await applyPatch.run({ patch }, context(dir)), { output: 'copied a.txt → b.txt (+0 -0)\ncopied a.txt → c.txt (+1 -1)', changedFiles: ['b.txt', 'c.txt'] });
  t.same([read(dir, 'a.txt'), read(dir, 'b.txt'), read(dir, 'c.txt')], ['one\ntwo\n', 'one\ntwo\n', 'one\nTWO\n']);
  t.same(await applyPatch.targets!({ patch: copy('a.txt', 'd.txt') + rename('b.txt', 'e.txt') }, context(dir)), ['d.txt', 'b.txt', 'e.txt'], 'the checkpoint names what changes, not a copy\'s source');
});

t.test('a rename or copy fails, changing nothing, when its source is missing, its target exists, or a hunk does not apply', async (t) => {
  const dir = t.testdir({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  await t.rejects(applyPatch.run({ patch: rename('none.txt', 'c.txt') }, context(dir)), { message: 'The patch renames "none.txt", which does not exist. No file was changed.' });
  await t.rejects(applyPatch.run({ patch: copy('a.txt', 'b.txt') }, context(dir)), { message: 'The patch copies "a.txt" to "b.txt", which already exists. No file was changed.' });
  await t.rejects(applyPatch.run({ patch: rename('a.txt', 'c.txt') + rename('a.txt', 'd.txt') }, context(dir)), { message: /^The patch renames "a\.txt", which does not exist/ }, 'renamed away by the section before');
  await t.rejects(applyPatch.run({ patch: rename('a.txt', 'c.txt', '@@ -1 +1 @@\n-x\n+y\n') }, context(dir)), { message: /^Hunk 1 of "c\.txt" \(@@ -1,1 \+1,1 @@\) does not apply/ });
  t.same(readdirSync(dir).sort(), ['a.txt', 'b.txt']);
  t.equal(read(dir, 'a.txt'), 'a\n');
});

t.test('a rename or copy out of the allowed directories, or from outside them, is refused by the sandbox', async (t) => {
  const dir = t.testdir({ root: { 'a.txt': 'a\n' }, outside: { 'secret.txt': 'secret\n' } });
  const root = join(dir, 'root');
  await t.rejects(applyPatch.run({ patch: rename('a.txt', '../outside/a.txt') }, context(root)), { message: 'Path "../outside/a.txt" is outside the working directory and the --add-dir directories.' });
  await t.rejects(applyPatch.run({ patch: copy('../outside/secret.txt', 'leak.txt') }, context(root)), { message: 'Path "../outside/secret.txt" is outside the working directory and the --add-dir directories.' });
  t.same(readdirSync(root), ['a.txt']);
  t.same(readdirSync(join(dir, 'outside')), ['secret.txt']);
});

t.test('targets rejects, never throws, for a patch it cannot read', async (t) => {
  const dir = t.testdir({});
  let thrown: unknown;
  const targets = (() => {
    try {
      return applyPatch.targets!({ patch: 'hello' }, context(dir));
    } catch (error) {
      thrown = error;
      return undefined;
    }
  })();
  t.equal(thrown, undefined, 'no synchronous throw: that ended the run as a crash');
  await t.rejects(targets!, { message: /^The patch changes no file/ });
});

t.test('refuses every path outside the working directory before changing anything', async (t) => {
  const dir = t.testdir({ root: { 'ok.txt': 'a\n' }, outside: { 'secret.txt': 'secret\n' } });
  const root = join(dir, 'root');
  symlinkSync('../outside/secret.txt', join(root, 'file-out'));
  symlinkSync('../outside', join(root, 'dir-out'));
  const okHunk = '--- a/ok.txt\n+++ b/ok.txt\n@@ -1 +1 @@\n-a\n+changed\n';
  const escapes = ['../outside/secret.txt', join(dir, 'outside/secret.txt'), 'file-out', 'dir-out/secret.txt'];
  for (const path of escapes) {
    const patch = `${okHunk}--- ${path}\n+++ ${path}\n@@ -1 +1 @@\n-secret\n+pwned\n`;
    await t.rejects(applyPatch.run({ patch }, context(root)), {
      message: `Path "${path}" is outside the working directory and the --add-dir directories.`,
    });
  }
  await t.rejects(applyPatch.run({ patch: `${okHunk}--- /dev/null\n+++ b/../outside/new.txt\n@@ -0,0 +1 @@\n+pwned\n` }, context(root)), {
    message: /"\.\.\/outside\/new\.txt" is outside/,
  });
  t.equal(read(dir, 'outside/secret.txt'), 'secret\n');
  t.same(readdirSync(join(dir, 'outside')), ['secret.txt']);
  t.equal(read(root, 'ok.txt'), 'a\n');
});

t.test('extraRoots (--add-dir) allow a second directory', async (t) => {
  const dir = t.testdir({ root: { 'a.txt': 'a\n' }, other: { 'b.txt': 'b\n' } });
  const patch = '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+A\n--- a/../other/b.txt\n+++ b/../other/b.txt\n@@ -1 +1 @@\n-b\n+B\n';
  await applyPatch.run({ patch }, context(join(dir, 'root'), [join(dir, 'other')]));
  t.equal(read(dir, 'root/a.txt'), 'A\n');
  t.equal(read(dir, 'other/b.txt'), 'B\n');
});

t.test('two sections for the same file apply one after the other', async (t) => {
  const dir = t.testdir({});
  const patch = '--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+one\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1,2 @@\n one\n+two\n';
  t.same(await applyPatch.run({ patch }, context(dir)), { output: 'created a.txt (+1 -0)\nmodified a.txt (+1 -0)', changedFiles: ['a.txt'] }, 'each file named once');
  t.equal(read(dir, 'a.txt'), 'one\ntwo\n');
});

t.test('keeps "No newline at end of file" exact', async (t) => {
  const dir = t.testdir({ 'a.txt': 'a\nb' });
  await applyPatch.run({ patch: '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n' }, context(dir));
  t.equal(read(dir, 'a.txt'), 'a\nc');
});

// A hard link does not show where its other names are: this one leads out of the working directory.
t.test('refuses a file hard-linked to one outside the working directory, which stays unchanged', async (t) => {
  const dir = t.testdir({ root: {}, outside: { 'secret.txt': 'secret\n' } });
  const root = join(dir, 'root');
  linkSync(join(dir, 'outside', 'secret.txt'), join(root, 'inside.txt'));
  await t.rejects(applyPatch.run({ patch: '--- a/inside.txt\n+++ b/inside.txt\n@@ -1 +1 @@\n-secret\n+changed\n' }, context(root)), { message: /^"inside\.txt" has 2 hard links, .*write tools do not change hard-linked files/ });
  t.equal(readFileSync(join(dir, 'outside', 'secret.txt'), 'utf8'), 'secret\n');
});

t.test('replaces each file whole, keeping its mode, and leaves no temporary file', async (t) => {
  const dir = t.testdir({ 'run.sh': 'echo old\n' });
  chmodSync(join(dir, 'run.sh'), 0o755);
  const before = statSync(join(dir, 'run.sh'));
  await applyPatch.run({ patch: '--- a/run.sh\n+++ b/run.sh\n@@ -1 +1 @@\n-echo old\n+echo new\n' }, context(dir));
  const after = statSync(join(dir, 'run.sh'));
  t.not(after.ino, before.ino, 'written through a new file renamed into place');
  t.equal(after.mode & 0o7777, 0o755);
  t.equal(readFileSync(join(dir, 'run.sh'), 'utf8'), 'echo new\n');
  t.same(readdirSync(dir), ['run.sh']);
});
