import t from 'tap';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { makePrivateDir, storeError } from '../../../lib/sessions/folders.js';

const mode = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

t.test('makePrivateDir: missing folders made 0700 under a umask of 022; an existing wider one narrowed', async (t) => {
  const previous = process.umask(0o022);
  t.teardown(() => void process.umask(previous));
  const base = t.testdir({});
  const deep = join(base, 'a', 'b', 'sessions');
  await makePrivateDir(deep);
  for (const dir of [join(base, 'a'), join(base, 'a', 'b'), deep]) t.equal(await mode(dir), '700', dir);
  const wide = join(base, 'wide');
  await mkdir(wide);
  await chmod(wide, 0o755);
  await makePrivateDir(wide);
  t.equal(await mode(wide), '700');
});

t.test('makePrivateDir: a path through a file fails with ENOTDIR; one under /proc fails at once instead of looping', async (t) => {
  const base = t.testdir({ file: 'x' });
  await t.rejects(makePrivateDir(join(base, 'file', 'sessions')), { code: 'ENOTDIR' });
  await t.rejects(makePrivateDir(join(base, 'file')), { code: 'ENOTDIR' });
  await t.rejects(makePrivateDir('/proc/zero/sessions'), { code: 'ENOENT' });
});

t.test('storeError: a file-system failure becomes a usage error naming the path and the problem', async (t) => {
  const denied = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
  const error = storeError('/srv/zero/sessions', denied);
  t.ok(error instanceof UsageError);
  t.match(error, { exitCode: 2, message: 'Cannot use the session store at /srv/zero/sessions: permission denied (EACCES). Set ZERO_HOME to a writable folder, or pass --no-session.', cause: denied });
  t.match(storeError('/x', Object.assign(new Error('odd'), { code: 'EWEIRD' })), { message: /^Cannot use the session store at \/x: EWEIRD \(EWEIRD\)/ });
  const usage = new UsageError('in use');
  t.equal(storeError('/x', usage), usage);
  const bug = new TypeError('not a file-system error');
  t.equal(storeError('/x', bug), bug);
});
