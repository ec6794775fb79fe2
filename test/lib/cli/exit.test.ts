import t from 'tap';
import type { Test } from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ownModule, TS_LOADER } from '../../helpers/repo.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * A process whose stdin is a terminal that hangs up (util-linux `script` gives it one; killing `script` closes the
 * terminal), then exits: its exit code and stderr, as the shell that started it saw them.
 */
async function exitAfterHangUp(t: Test, exitWith: string): Promise<{ code: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'zero-exit-'));
  const script = `const exit = await import(${JSON.stringify(ownModule('lib/cli/exit'))}); setTimeout(() => { ${exitWith} }, 1500);`;
  const node = [process.execPath, ...TS_LOADER, '--input-type=module', '-e', script].map(quote).join(' ');
  // the shell ignores the hang-up, so it lives on to write the code; the child inherits that, as `nohup` would
  const command = `trap '' HUP; ${node} 2> ${quote(join(dir, 'err'))}; echo $? > ${quote(join(dir, 'code'))}`;
  const terminal = spawn('script', ['-qec', command, '/dev/null'], { stdio: 'ignore' });
  t.teardown(() => void terminal.kill('SIGKILL'));
  await sleep(700);
  terminal.kill('SIGKILL');
  for (let waited = 0; waited < 10000 && !existsSync(join(dir, 'code')); waited += 100) await sleep(100);
  await sleep(100);
  return { code: readFileSync(join(dir, 'code'), 'utf8').trim(), stderr: readFileSync(join(dir, 'err'), 'utf8') };
}

t.test('an exit on a terminal that hung up keeps its code, and Node leaves no dump on stderr', { skip: !hasScript && 'no script(1) here' }, async (t) => {
  const exited = await exitAfterHangUp(t, 'exit.exitProcess(129);');
  t.equal(exited.code, '129');
  t.notMatch(exited.stderr, /Assertion failed|Native stack/);
});

t.test('the same for a process that ends on its own, once coverHungUpTerminals ran on exit', { skip: !hasScript && 'no script(1) here' }, async (t) => {
  const exited = await exitAfterHangUp(t, "process.once('exit', exit.coverHungUpTerminals); process.exitCode = 3;");
  t.equal(exited.code, '3');
  t.notMatch(exited.stderr, /Assertion failed|Native stack/);
});

t.test('without it, Node aborts (what the tests above guard against)', { skip: !hasScript && 'no script(1) here' }, async (t) => {
  const exited = await exitAfterHangUp(t, 'process.exit(3);');
  t.not(exited.code, '3');
  t.match(exited.stderr, /Assertion failed/);
});
