import t from 'tap';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { EXIT_STDOUT_CLOSED, stdoutPlace, watchStdout, type CliIO } from '../../../lib/cli/io.js';

t.test('watchStdout: one watch per stdout, holding its first write error', async (t) => {
  const stdout = new PassThrough();
  const io = { stdout } as unknown as CliIO;
  const watch = watchStdout(io);
  t.equal(watchStdout(io), watch, 'asked again, the same watch');
  const first = Object.assign(new Error('EPIPE'), { code: 'EPIPE' });
  stdout.emit('error', first);
  stdout.emit('error', Object.assign(new Error('later'), { code: 'EIO' }));
  t.equal(await watch.failed, first);
  t.equal(watch.failure, first, 'the first error is kept');
});

t.test('the exit status of a stdout whose reader went away', async (t) => {
  t.equal(EXIT_STDOUT_CLOSED, 141);
});

t.test('stdoutPlace: where stdout is seen from stderr, by the files the descriptors are', async (t) => {
  const dir = t.testdir({ a: '', b: '' });
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  const open = (path: string) => {
    const fd = openSync(path, 'r+'); // a FIFO opened for both ends does not wait for a reader
    t.teardown(() => closeSync(fd));
    return fd;
  };
  const [a, b, sameAsA, fifo, devNull] = [open(join(dir, 'a')), open(join(dir, 'b')), open(join(dir, 'a')), open(join(dir, 'fifo')), open('/dev/null')];
  t.equal(stdoutPlace(sameAsA, a), 'shared', 'the same file (2>&1)');
  t.equal(stdoutPlace(b, a), 'elsewhere', 'another file');
  t.equal(stdoutPlace(devNull, a), 'elsewhere', '/dev/null');
  t.equal(stdoutPlace(fifo, a), 'unknown', 'a pipe: its reader may show it anywhere (| tee)');
  t.equal(stdoutPlace(987654, a), 'unknown', 'a descriptor that is not open: nothing known');
});
