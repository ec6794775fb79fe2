import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, eventTypes, jsonLines, streamedText, writeScript, zero } from '../../helpers/zero.js';

// A full disk under ZERO_HOME: a 64 KiB tmpfs, which only root can mount here.
const mountable = process.getuid?.() === 0;

/** A ZERO_HOME on a fresh 64 KiB tmpfs, unmounted when the test ends. */
function tinyHome(t: Test): string {
  const home = mkdtempSync(join(tmpdir(), 'zero-full-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', home]);
  t.teardown(() => {
    execFileSync('umount', [home]);
    rmdirSync(home);
  });
  return home;
}

const sessionsIn = (home: string): string[] => {
  try {
    return readdirSync(join(home, 'sessions'));
  } catch {
    return [];
  }
};

// 20 deltas of 9 KB: more than the 64 KiB disk holds.
const chunk = 'lorem ipsum dolor '.repeat(500);
const BIG = [{ chunks: Array.from({ length: 20 }, () => chunk) }];

async function run(t: Test, home: string, turns: unknown[]) {
  const dir = t.testdir({});
  const script = writeScript(dir, turns);
  const result = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, 'Write a lot.'], { env: cleanEnv({ ZERO_HOME: home }) });
  return { ...result, events: jsonLines(result.stdout) };
}

t.test('the disk fills up mid-run: the answer is all there, one warning says why, run_end is the normal one', { skip: !mountable && 'mounting a tmpfs needs root' }, async (t) => {
  const home = tinyHome(t);
  const { code, events, stderr } = await run(t, home, BIG);
  t.equal(code, 0, stderr);
  t.equal(streamedText(events), chunk.repeat(20), 'nothing the model said is lost');
  const warnings = events.filter((event) => event.type === 'warning');
  t.equal(warnings.length, 1);
  t.match(warnings[0]!.message, /^The session zero_\w+ could not be written: the disk is full \(ENOSPC\)\./);
  t.match(events.at(-1), { type: 'run_end', status: 'success', exitCode: 0 });
  t.notOk(eventTypes(events).includes('error'), 'no crash');
});

t.test('later runs on the full disk go on and say the disk is full, leaving no empty session folder; once space is freed they are recorded', { skip: !mountable && 'mounting a tmpfs needs root' }, async (t) => {
  const home = tinyHome(t);
  await run(t, home, BIG);
  const before = sessionsIn(home);
  for (let attempt = 0; attempt < 2; attempt++) {
    const { code, events } = await run(t, home, [{ chunks: ['ok'] }]);
    t.equal(code, 0);
    t.equal(streamedText(events), 'ok');
    t.match(events.find((event) => event.type === 'warning'), { message: /^The session could not be written: the disk is full \(ENOSPC\)\./ });
    t.match(events.at(-1), { type: 'run_end', status: 'success' });
  }
  t.same(sessionsIn(home), before, 'no folder left behind');
  rmSync(join(home, 'sessions', before[0]!), { recursive: true });
  const { events } = await run(t, home, [{ chunks: ['ok'] }]);
  t.notOk(events.some((event) => event.type === 'warning'), 'space again: no warning');
  t.same(sessionsIn(home), [events[0]!.sessionId], 'the run is recorded');
});

t.test('--resume on a full disk: a usage error that says the disk is full, no crash, no lock file left half made', { skip: !mountable && 'mounting a tmpfs needs root' }, async (t) => {
  const home = tinyHome(t);
  const { events: first } = await run(t, home, [{ chunks: ['ok'] }]);
  const id = first[0]!.sessionId as string;
  execFileSync('sh', ['-c', `dd if=/dev/zero of=${join(home, 'filler')} bs=4k 2>/dev/null; true`]);
  const dir = t.testdir({});
  const script = writeScript(dir, [{ chunks: ['again'] }]);
  const { code, stdout } = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, '--resume', id, 'Again.'], { env: cleanEnv({ ZERO_HOME: home }) });
  const events = jsonLines(stdout);
  t.equal(code, 2);
  t.match(events.find((event) => event.type === 'error'), { code: 'usage_error', message: /the disk is full \(ENOSPC\)/ });
  t.match(events.at(-1), { type: 'run_end', exitCode: 2 });
  t.same(readdirSync(join(home, 'sessions', id)).filter((name) => name.endsWith('.tmp')), [], 'no temporary lock file');
});

t.test('a disk already full to the last byte: a new run goes on unrecorded, says so, and leaves no folder', { skip: !mountable && 'mounting a tmpfs needs root' }, async (t) => {
  const home = tinyHome(t);
  execFileSync('sh', ['-c', `dd if=/dev/zero of=${join(home, 'filler')} bs=4k 2>/dev/null; true`]);
  const { code, events } = await run(t, home, [{ chunks: ['ok'] }]);
  t.equal(code, 0);
  t.equal(streamedText(events), 'ok');
  t.match(events.find((event) => event.type === 'warning'), { message: /^The session could not be written: the disk is full \(ENOSPC\)\./ });
  t.match(events.at(-1), { type: 'run_end', status: 'success', exitCode: 0 });
  t.same(sessionsIn(home), [], 'no folder left behind');
});

t.test('a read-only file system under ZERO_HOME, with or without its sessions folder: a new run goes on unrecorded and says so; --resume is refused before it starts', { skip: !mountable && 'mounting a tmpfs needs root' }, async (t) => {
  for (const withFolder of [true, false]) {
    const home = tinyHome(t);
    if (withFolder) execFileSync('mkdir', ['-m', '755', join(home, 'sessions')]);
    execFileSync('mount', ['-o', 'remount,ro', home]);
    const { code, events, stderr } = await run(t, home, [{ chunks: ['ok'] }]);
    t.equal(code, 0, stderr);
    t.equal(streamedText(events), 'ok');
    t.notOk('sessionId' in events[0]!, 'run_start names no session');
    t.match(events.find((event) => event.type === 'warning'), { message: /^The session could not be written: the file system is read-only \(EROFS\)\./ });
    t.match(events.at(-1), { type: 'run_end', status: 'success', exitCode: 0 });
  }
  const home = tinyHome(t);
  execFileSync('mount', ['-o', 'remount,ro', home]);
  const dir = t.testdir({});
  const { code, stdout } = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', writeScript(dir, [{ chunks: ['x'] }]), '-C', dir, '--resume', 'zero_20261207000000_abcdef', 'Again.'], { env: cleanEnv({ ZERO_HOME: home }) });
  t.equal(code, 2);
  t.match(jsonLines(stdout).find((event) => event.type === 'error'), { code: 'usage_error', message: /read-only \(EROFS\)/ });
});
