import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { acquireLock, isRunning, startTimeOf } from '../../../lib/sessions/lock.js';

const ours = `${process.pid} ${startTimeOf(process.pid)}\n`;

const id = 'zero_20240102030405_abc123';

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

t.test('isRunning', async (t) => {
  t.equal(isRunning(process.pid), true);
  t.equal(isRunning(await deadPid()), false);
  t.equal(isRunning(0), false, 'never the process group');
  t.equal(isRunning(-1), false, 'never every process');
  t.equal(isRunning(NaN), false);
  t.equal(isRunning(1.5), false);
});

t.test('the lock is a file holding our pid and its start time; unlock removes it, once', async (t) => {
  const dir = t.testdir({});
  const lock = await acquireLock(dir, id);
  t.equal(lock.pid, process.pid);
  t.equal(lock.held, true);
  t.equal(await readFile(join(dir, 'lock'), 'utf8'), ours);
  t.same(await readdir(dir), ['lock'], 'no temporary file left');
  await lock.unlock();
  t.equal(lock.held, false);
  t.same(await readdir(dir), []);
  await lock.unlock();
  const again = await acquireLock(dir, id);
  t.equal(again.held, true);
  await again.unlock();
});

t.test('a second lock while the first is held is a usage error naming the holder', async (t) => {
  const dir = t.testdir({});
  const first = await acquireLock(dir, id);
  await t.rejects(acquireLock(dir, id), new UsageError(`Zero session ${id} is in use by another run (pid ${process.pid}).`));
  await first.unlock();
});

t.test('a lock held by another live process is respected', async (t) => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  t.teardown(() => child.kill());
  const dir = t.testdir({ lock: `${child.pid}\n` });
  await t.rejects(acquireLock(dir, id), new UsageError(`Zero session ${id} is in use by another run (pid ${child.pid}).`));
  t.equal(await readFile(join(dir, 'lock'), 'utf8'), `${child.pid}\n`);
});

t.test('a stale lock (its process is gone) is taken over', async (t) => {
  const dir = t.testdir({ lock: `${await deadPid()}\n` });
  const lock = await acquireLock(dir, id);
  t.equal(await readFile(join(dir, 'lock'), 'utf8'), ours);
  t.same(await readdir(dir), ['lock']);
  await lock.unlock();
});

t.test('a lock of a process killed and not yet reaped (a zombie: `kill -9`, its parent busy) is taken over', async (t) => {
  // the inner shell prints its pid and exits; its parent has become `sleep`, which never reaps it
  const parent = spawn('sh', ['-c', 'sh -c \'echo $$\' & exec sleep 30']);
  t.teardown(() => parent.kill());
  const [chunk] = (await once(parent.stdout!, 'data')) as [Buffer];
  const zombie = Number(String(chunk).trim());
  const stateOf = async () => (await readFile(`/proc/${zombie}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.[0];
  for (let tries = 0; (await stateOf()) !== 'Z' && tries < 200; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
  t.equal(await stateOf(), 'Z', 'the inner shell is a zombie');
  t.ok(isRunning(zombie), 'signal 0 still reaches it');
  const dir = t.testdir({ lock: `${zombie} ${startTimeOf(zombie)}\n` });
  const lock = await acquireLock(dir, id);
  t.equal(await readFile(join(dir, 'lock'), 'utf8'), ours);
  await lock.unlock();
});

t.test('a lock of a live pid that names another process now (a reused pid: another start time) is taken over', async (t) => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  t.teardown(() => child.kill());
  await once(child, 'spawn');
  const start = startTimeOf(child.pid!);
  t.match(start, /^\d+$/);
  const dir = t.testdir({ lock: `${child.pid} ${Number(start) + 1}\n` });
  const lock = await acquireLock(dir, id);
  t.equal(await readFile(join(dir, 'lock'), 'utf8'), ours);
  await lock.unlock();
  await writeFile(join(dir, 'lock'), `${child.pid} ${start}\n`);
  await t.rejects(acquireLock(dir, id), new UsageError(`Zero session ${id} is in use by another run (pid ${child.pid}).`), 'its own start time: in use');
});

t.test('a lock that is garbage or a folder is an error naming the path to remove, and is left alone', async (t) => {
  const dir = t.testdir({ lock: 'garbage' });
  const file = join(dir, 'lock');
  await t.rejects(acquireLock(dir, id), new UsageError(`The session lock ${file} is garbage, not a lock zero wrote: remove it if no run is using the session.`));
  t.equal(await readFile(file, 'utf8'), 'garbage');
  const folder = t.testdir({ lock: {} });
  await t.rejects(acquireLock(folder, id), { message: `The session lock ${join(folder, 'lock')} is a folder, not a lock zero wrote: remove it if no run is using the session.` });
});

t.test('a takeover guard left by a crashed process does not block', async (t) => {
  const dir = t.testdir({ lock: `${await deadPid()}\n`, 'lock.takeover': `${await deadPid()}\n` });
  const lock = await acquireLock(dir, id);
  t.same(await readdir(dir), ['lock']);
  await lock.unlock();
});

t.test('many runs taking over one stale lock at once: exactly one wins', async (t) => {
  for (let round = 0; round < 10; round++) {
    const dir = t.testdir({ lock: `${await deadPid()}\n` });
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => acquireLock(dir, id)));
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    t.equal(won.length, 1, `round ${round}`);
    for (const o of outcomes) if (o.status === 'rejected') t.match(o.reason, { message: `Zero session ${id} is in use by another run (pid ${process.pid}).` });
    t.same(await readdir(dir), ['lock']);
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value.unlock();
  }
});

t.test('unlock leaves alone a lock that is no longer ours', async (t) => {
  const dir = t.testdir({});
  const lock = await acquireLock(dir, id);
  await writeFile(join(dir, 'lock'), '12345\n');
  await lock.unlock();
  t.equal(await readFile(join(dir, 'lock'), 'utf8'), '12345\n');
});

t.test('a missing folder is an error, not a lock', async (t) => {
  await t.rejects(acquireLock(join(t.testdir({}), 'gone'), id), { code: 'ENOENT' });
});
