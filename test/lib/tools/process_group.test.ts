import t from 'tap';
import { spawn } from 'node:child_process';
import { isRunning, survivors } from '../../helpers/processes.js';
import { killProcessGroups, killRunningGroups, trackProcessGroups } from '../../../lib/tools/process_group.js';


async function groupWithChild(script: string): Promise<{ leader: number; child: number; exited: Promise<unknown> }> {
  const leader = spawn('bash', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => leader.once('exit', resolve));
  const child = await new Promise<number>((resolve) => leader.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
  return { leader: leader.pid!, child, exited };
}

t.test('ends the leader and its children, and resolves only once they are gone', async (t) => {
  const { leader, child } = await groupWithChild('sleep 60 & echo $!; wait');
  await killProcessGroups([leader], 1000);
  t.notOk(isRunning(leader));
  t.notOk(isRunning(child));
});

t.test('a process that ignores SIGTERM gets SIGKILL after the grace period', async (t) => {
  const { leader, child } = await groupWithChild("trap '' TERM; sleep 60 & echo $!; wait; wait");
  await killProcessGroups([leader], 200);
  t.notOk(isRunning(leader));
  t.notOk(isRunning(child));
});

t.test('a child in a session of its own (as bubblewrap runs its sandbox) goes too, found by its parent', async (t) => {
  // setsid: a new session and group, which neither the group's signal nor its session reaches
  const { leader, child } = await groupWithChild('setsid sleep 60 & echo $!; wait');
  t.teardown(() => isRunning(child) && process.kill(child, 'SIGKILL'));
  await killProcessGroups([leader], 1000);
  t.notOk(isRunning(leader));
  t.notOk(isRunning(child), 'the child in its own session');
});

t.test('a process that leaves for a session of its own after the first signal is still watched, by its pid', async (t) => {
  // as a sandbox's init does: it ignores SIGTERM, and calls setsid once bwrap, its parent, may already be gone
  const { leader, child } = await groupWithChild("(trap '' TERM; sleep 0.3; exec setsid sleep 60) & echo $!; wait");
  t.teardown(() => isRunning(child) && process.kill(child, 'SIGKILL'));
  await killProcessGroups([leader], 1000);
  t.notOk(isRunning(child), 'killed after the grace period, in its new session');
});

t.test('a group that is already gone is fine', async (t) => {
  const { leader, exited } = await groupWithChild('echo 0');
  await exited;
  await t.resolves(killProcessGroups([leader], 100));
});

t.test('killRunningGroups sends SIGKILL to the tracked groups only, SIGTERM-proof or not', async (t) => {
  const tracked = await groupWithChild("trap '' TERM; sleep 60 & echo $!; wait; wait");
  const untracked = await groupWithChild('sleep 60 & echo $!; wait');
  const done = await groupWithChild('sleep 60 & echo $!; wait');
  t.teardown(() => process.kill(-untracked.leader, 'SIGKILL'));
  trackProcessGroups([tracked.leader]);
  trackProcessGroups([done.leader])();
  killRunningGroups();
  t.same(await survivors([tracked.leader, tracked.child]), [], 'killed at once: SIGTERM would have been ignored');
  t.ok(isRunning(untracked.child));
  t.ok(isRunning(done.child), 'a group no longer tracked is left alone');
  process.kill(-done.leader, 'SIGKILL');
});
