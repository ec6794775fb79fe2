import t from 'tap';
import { PassThrough } from 'node:stream';
import { EXIT_STDOUT_CLOSED, watchStdout, type CliIO } from '../../../lib/cli/io.js';

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
