import t from 'tap';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { killProcessGroup } from '../../../lib/tools/process_group.js';

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) [ZX] /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function groupWithChild(script: string): Promise<{ leader: number; child: number; exited: Promise<unknown> }> {
  const leader = spawn('bash', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => leader.once('exit', resolve));
  const child = await new Promise<number>((resolve) => leader.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
  return { leader: leader.pid!, child, exited };
}

t.test('ends the leader and its children, and resolves only once they are gone', async (t) => {
  const { leader, child } = await groupWithChild('sleep 60 & echo $!; wait');
  await killProcessGroup(leader, 1000);
  t.notOk(running(leader));
  t.notOk(running(child));
});

t.test('a process that ignores SIGTERM gets SIGKILL after the grace period', async (t) => {
  const { leader, child } = await groupWithChild("trap '' TERM; sleep 60 & echo $!; wait; wait");
  await killProcessGroup(leader, 200);
  t.notOk(running(leader));
  t.notOk(running(child));
});

t.test('a group that is already gone is fine', async (t) => {
  const { leader, exited } = await groupWithChild('echo 0');
  await exited;
  await t.resolves(killProcessGroup(leader, 100));
});
