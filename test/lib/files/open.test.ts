import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { open, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { closeFile, fileKind, isSpecialFile, NotRegularFileError, openRegularFile, openStream, openToRead, streamOf } from '../../../lib/files/open.js';
import { stillOpen } from '../../helpers/processes.js';

const linux = process.platform === 'linux';

t.test('openToRead opens anything readable at once, a FIFO nobody writes included, and says what it opened', { skip: !linux, timeout: 10_000 }, async (t) => {
  const dir = t.testdir({ 'a.txt': 'a', sub: {} });
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  const kinds: string[] = [];
  const special: boolean[] = [];
  for (const path of [join(dir, 'a.txt'), join(dir, 'sub'), join(dir, 'pipe'), '/dev/null']) {
    const { fd, stats } = await openToRead(path);
    kinds.push(fileKind(stats));
    special.push(isSpecialFile(stats));
    await closeFile(fd);
  }
  t.same(kinds, ['a regular file', 'a directory', 'a FIFO (named pipe)', 'a character device']);
  t.same(special, [false, false, true, true]);
});

// A blocking open() of a FIFO holds one of libuv's four pool threads until a writer comes: four such opens
// and no file can be read any more, and process.exit waits for them.
t.test('FIFOs opened to read hold no pool thread: file reads go on after more of them than the pool has threads', { skip: !linux, timeout: 10_000 }, async (t) => {
  const dir = t.testdir({ 'a.txt': 'still readable' });
  const fifos = Array.from({ length: 6 }, (_, index) => join(dir, `pipe${index}`));
  for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
  const opened = await Promise.all(fifos.map((fifo) => openToRead(fifo)));
  t.equal(await readFile(join(dir, 'a.txt'), 'utf8'), 'still readable');
  for (const { fd } of opened) await closeFile(fd);
});

t.test('openRegularFile refuses, naming it, anything but a regular file: a FIFO, a symlink to one, a socket, a device, a directory', { skip: !linux, timeout: 10_000 }, async (t) => {
  const dir = t.testdir({ 'a.txt': 'a', sub: {} });
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  symlinkSync('pipe', join(dir, 'pipe-link'));
  // A socket's path must be short (108 bytes): not in the test's own folder.
  const socketDir = mkdtempSync(join(tmpdir(), 'zero-sock-'));
  const server = createServer().listen(join(socketDir, 'sock'));
  t.teardown(() => {
    server.close();
    rmSync(socketDir, { recursive: true, force: true });
  });
  await new Promise((resolve) => server.once('listening', resolve));
  symlinkSync(join(socketDir, 'sock'), join(dir, 'sock'));
  const file = await openRegularFile(join(dir, 'a.txt'), 'a.txt');
  t.ok(file.stats.isFile());
  await closeFile(file.fd);
  const refusals: [string, string][] = [
    ['pipe', 'a FIFO (named pipe)'],
    ['pipe-link', 'a FIFO (named pipe)'],
    ['sock', 'a socket'], // through a symlink
    ['sub', 'a directory'],
  ];
  for (const [name, kind] of refusals) {
    const error = await openRegularFile(join(dir, name), name).catch((caught: unknown) => caught);
    t.type(error, NotRegularFileError, name);
    t.match(error, { kind, message: `"${name}" is ${kind}, not a regular file: the file tools read regular files only, never FIFOs, sockets or devices.` });
  }
  t.match(await openRegularFile('/dev/zero', 'zero').catch((caught: unknown) => caught), { kind: 'a character device' });
  await t.rejects(openRegularFile(join(dir, 'none'), 'none'), { code: 'ENOENT' });
});

t.test('openStream reads a file, a FIFO (its writer coming later) and a device; a directory is EISDIR', { skip: !linux }, async (t) => {
  const dir = t.testdir({ 'a.txt': 'file text', sub: {} });
  const read = async (stream: AsyncIterable<unknown>, most = Infinity) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      chunks.push(chunk as Buffer);
      if ((size += (chunk as Buffer).length) >= most) break;
    }
    return Buffer.concat(chunks);
  };
  t.equal(String(await read(await openStream(join(dir, 'a.txt')))), 'file text');
  const fifo = join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  const fromFifo = openStream(fifo).then((stream) => read(stream));
  const writer = await open(fifo, 'w');
  await writer.writeFile('pipe text');
  await writer.close();
  t.equal(String(await fromFifo), 'pipe text');
  t.ok((await read(await openStream('/dev/zero'), 100_000)).length >= 100_000, '/dev/zero streams (bounded by its reader)');
  await t.rejects(openStream(join(dir, 'sub')), { code: 'EISDIR', message: /^EISDIR: illegal operation on a directory/ });
});

t.test('streamOf owns the descriptor: destroying the stream closes it', { skip: !linux }, async (t) => {
  const dir = t.testdir({ 'a.txt': 'a' });
  const fifo = join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  for (const path of [join(dir, 'a.txt'), fifo]) {
    const file = await openToRead(path);
    streamOf(file).destroy();
    t.equal(await stillOpen(file.fd), false, path);
  }
});
