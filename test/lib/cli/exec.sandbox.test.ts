import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { needsBubblewrap, processesWith, uniqueSleep } from '../../helpers/sandbox.js';
import { survivors } from '../../helpers/processes.js';
import { converse, kinds, say, scripted } from '../../helpers/conversation.js';
import { cleanEnv, eventTypes, jsonLines, nth, writeScript, zero, type ZeroOptions } from '../../helpers/zero.js';

// The shell sandbox as a user meets it: flags, warnings in each format, exit codes, one run end to end.

const NO_BWRAP = { ZERO_BWRAP: '/nonexistent/bwrap' };

async function exec(t: Test, turns: unknown[], args: string[], options: ZeroOptions & { extraEnv?: NodeJS.ProcessEnv } = {}) {
  const dir = t.testdir({ work: { 'notes.txt': 'draft\n' }, outside: {} });
  const work = join(dir, 'work');
  const script = writeScript(dir, turns, 'script.jsonl');
  const result = await zero(['exec', '--provider', 'scripted', '--script', script, '-C', work, ...args, 'go'], { env: cleanEnv(options.extraEnv), ...options });
  return { ...result, events: jsonLines(result.stdout.startsWith('{') ? result.stdout : ''), work, outside: join(dir, 'outside') };
}

t.test('bubblewrap missing (ZERO_BWRAP names no file): the sandbox is off, a warning says so in every format, and bash needs a permission at low', async (t) => {
  const touch = { toolCalls: [{ id: 'b1', name: 'bash', args: { command: 'touch ran' } }] };
  const warning = /^The shell sandbox \(workspace-write\) is off: ZERO_BWRAP names \/nonexistent\/bwrap, which is not an executable file\. Install bubblewrap/;
  const streamed = await exec(t, [touch, { text: 'refused' }], ['-o', 'stream-json'], { extraEnv: NO_BWRAP });
  t.equal(streamed.code, 0);
  t.same(eventTypes(streamed.events), ['run_start', 'warning', 'tool_call', 'tool_result', 'text', 'final', 'run_end']);
  t.match(streamed.events[1], { message: warning });
  t.match(nth(streamed.events, 'tool_result'), { status: 'error', output: /^Permission required: bash runs shell commands outside a sandbox/ });
  t.notOk(existsSync(join(streamed.work, 'ran')));
  const json = await exec(t, [touch, { text: 'refused' }], ['-o', 'json'], { extraEnv: NO_BWRAP });
  t.match(jsonLines(json.stdout).find((line) => line.type === 'warning'), { message: warning });
  const text = await exec(t, [touch, { text: 'refused' }], ['-o', 'text'], { extraEnv: NO_BWRAP });
  t.equal(text.stdout, 'refused\n');
  t.match(text.stderr, /\[zero\] WARNING: The shell sandbox \(workspace-write\) is off: ZERO_BWRAP names \/nonexistent\/bwrap/);
});

t.test('end to end at --auto low: the sandboxed command runs with a permission_decision, writes the workspace, cannot write outside', { skip: needsBubblewrap }, async (t) => {
  const command = (outside: string) => `echo built > out.txt; echo x > ${outside}/escaped; env | grep -c ZERO_TEST_SECRET_TOKEN`;
  // beside the workspace, and not under /tmp (the command has a private one)
  const outsideDir = join(t.testdirName, 'outside');
  const turns = [{ toolCalls: [{ id: 'b1', name: 'bash', args: { command: command(outsideDir) } }] }, { text: 'done' }];
  const { events, code, work, outside } = await exec(t, turns, ['-o', 'stream-json', '--schema-version', '2'], { extraEnv: { ZERO_TEST_SECRET_TOKEN: 'not-for-commands' } });
  t.equal(code, 0);
  t.same(eventTypes(events), ['run_start', 'warning', 'tool_call', 'permission_decision', 'tool_result', 'text', 'final', 'run_end']);
  t.match(events[1], { message: /^Shell commands run in the workspace-write sandbox \(bubblewrap, the default\)/ });
  t.match(nth(events, 'permission_decision'), { id: 'b1', action: 'allow', permissionGranted: true, decisionReason: 'Auto-allowed at --auto low: sandboxed shell (workspace-write, no network).' });
  t.match(nth(events, 'tool_result'), { status: 'ok', output: /(?:Read-only file system|No such file or directory)\n0\nexit code 1$/ });
  t.equal(readFileSync(join(work, 'out.txt'), 'utf8'), 'built\n');
  t.same(readdirSync(outside), []);
});

t.test('--skip-permissions-unsafe wins over any valid --auto, with the unsafe warning; an invalid --auto is still a usage error', async (t) => {
  const edit = { toolCalls: [{ id: 'e1', name: 'edit_file', args: { path: 'notes.txt', old_string: 'draft', new_string: 'final' } }] };
  for (const level of ['low', 'medium', 'high']) {
    const { events, code, work } = await exec(t, [edit, { text: 'edited' }], ['-o', 'stream-json', '--skip-permissions-unsafe', '--auto', level]);
    t.equal(code, 0, level);
    t.match(events[1], { type: 'warning', message: /^Unsafe permissions are active .* Shell commands run without a sandbox \(--skip-permissions-unsafe\)/ });
    t.equal(readFileSync(join(work, 'notes.txt'), 'utf8'), 'final\n');
  }
  const bad = await exec(t, [{ text: 'unused' }], ['-o', 'stream-json', '--skip-permissions-unsafe', '--auto', 'max']);
  t.equal(bad.code, 2);
  t.match(bad.events, [{ type: 'error', code: 'usage_error', message: /^Invalid value for --auto: "max"/ }, { type: 'run_end', exitCode: 2 }]);
});

t.test('an unknown name in --enabled-tools or --disabled-tools is a usage error naming it', async (t) => {
  for (const flag of ['--enabled-tools', '--disabled-tools']) {
    const { events, code } = await exec(t, [{ text: 'unused' }], ['-o', 'stream-json', flag, 'read_file,web_search']);
    t.equal(code, 2);
    t.match(events, [{ type: 'error', code: 'usage_error', message: new RegExp(`^Unknown tool "web_search" in ${flag}: this run has read_file, `) }, { type: 'run_end', exitCode: 2 }]);
  }
});

t.test('bad sandbox flags are usage errors', async (t) => {
  for (const [args, message] of [
    [['--sandbox', 'full'], /^Invalid value for --sandbox: "full"\. Expected one of: workspace-write, read-only, off\./],
    [['--env-pass', 'A;B'], /^Invalid value for --env-pass: "A;B"/],
  ] as const) {
    const { events, code } = await exec(t, [{ text: 'unused' }], ['-o', 'stream-json', ...args]);
    t.equal(code, 2);
    t.match(events, [{ type: 'error', code: 'usage_error', message }, { type: 'run_end', exitCode: 2 }]);
  }
});

t.test('--sandbox-network at --auto low: each command needs a permission (refused headless)', { skip: needsBubblewrap }, async (t) => {
  const { events, work } = await exec(t, [{ toolCalls: [{ id: 'b1', name: 'bash', args: { command: 'touch ran' } }] }, { text: 'no' }], ['-o', 'stream-json', '--schema-version', '2', '--sandbox-network']);
  t.match(nth(events, 'permission_request'), { id: 'b1', reason: /^Permission required: bash runs shell commands with network access \(--sandbox-network\)/ });
  t.notOk(existsSync(join(work, 'ran')));
});

t.test('--env-pass hands a command a variable that looks like a credential; the rest stay out, the run\'s key under any name too', async (t) => {
  const command = 'echo "${#NPM_TOKEN} ${#OTHER_TOKEN} ${#COPIED}"';
  // a key no redaction rule knows: only the run's knowing it keeps it out
  const key = 'plain-key-value-42';
  const { events } = await exec(t, [{ toolCalls: [{ id: 'b1', name: 'bash', args: { command } }] }, { text: 'ok' }], ['-o', 'stream-json', '--auto', 'high', '--sandbox', 'off', '--env-pass', 'NPM_*'], {
    extraEnv: { NPM_TOKEN: 'twelve-chars', OTHER_TOKEN: 'also-twelve!', OPENAI_API_KEY: key, COPIED: key },
  });
  t.match(nth(events, 'tool_result'), { status: 'ok', output: '12 0 0\nexit code 0' });
});

// Unread text before the call (24 × 64 KiB fill the pipe) keeps zero's writes pending: closing our end then fails one with EPIPE.
const FILLS_THE_PIPE = Array.from({ length: 24 }, () => 'x'.repeat(64 * 1024));
for (const [how, code] of [['SIGTERM', 143], ['SIGHUP', 129], ['EPIPE', 141]] as const) {
  t.test(`${how} while a sandboxed command runs: it and everything it started are gone, exit ${code}`, { skip: needsBubblewrap }, async (t) => {
    const marker = uniqueSleep();
    const command = `setsid sleep ${marker} & nohup sleep ${marker} >/dev/null 2>&1 & touch started; sleep ${marker}`;
    const work = join(t.testdirName, 'work');
    const call = { toolCalls: [{ id: 'b1', name: 'bash', args: { command } }], ...(how === 'EPIPE' ? { chunks: FILLS_THE_PIPE } : {}) };
    const result = await exec(t, [call, { text: 'unreachable' }], ['-o', 'stream-json'], {
      onSpawn: (child) => {
        child.stdin!.end();
        if (how === 'EPIPE') child.stdout!.pause();
        void (async () => {
          while (!existsSync(join(work, 'started')) || processesWith(marker).length < 3) await sleep(20);
          if (how === 'EPIPE') child.stdout!.destroy();
          else child.kill(how);
        })();
      },
    });
    t.equal(result.code, code);
    if (how !== 'EPIPE') t.same(eventTypes(result.events).slice(-3), ['tool_result', 'error', 'run_end']);
    t.same(await survivors(processesWith(marker)), []);
  });
}

t.test('kill -9 of zero while a sandboxed command runs: nothing it started outlives zero (--die-with-parent)', { skip: needsBubblewrap }, async (t) => {
  const marker = uniqueSleep();
  const work = join(t.testdirName, 'work');
  const result = await exec(t, [{ toolCalls: [{ id: 'b1', name: 'bash', args: { command: `setsid sleep ${marker} & touch started; sleep ${marker}` } }] }], ['-o', 'stream-json'], {
    onSpawn: (child) => {
      child.stdin!.end();
      void (async () => {
        while (!existsSync(join(work, 'started')) || processesWith(marker).length < 2) await sleep(20);
        child.kill('SIGKILL');
      })();
    },
  });
  t.equal(result.signal, 'SIGKILL');
  t.same(await survivors(processesWith(marker)), []);
});

t.test('--permission-prompt stdio at --auto low (version 1): a write inside is not asked for; its permission_decision says why', async (t) => {
  const run = scripted(t, [{ toolCalls: [{ id: 'w1', name: 'write_file', args: { path: 'NOTES.md', content: 'x\n' } }] }, { text: 'Written.' }]);
  const result = await converse(run.args('--permission-prompt', 'stdio'), (client) => client.send(say('Write.')), (event, client) => {
    if (event.type === 'turn_end') client.end();
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.same(kinds(result.events).filter((type) => String(type).startsWith('permission')), ['permission_decision']);
  t.match(result.events.find((event) => event.type === 'permission_decision'), { schemaVersion: 1, id: 'w1', action: 'allow', permissionGranted: true, decisionReason: 'Auto-allowed at --auto low: a write inside the working directory and the --add-dir directories.' });
  t.equal(readFileSync(join(run.dir, 'NOTES.md'), 'utf8'), 'x\n');
});
