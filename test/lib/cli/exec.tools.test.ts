import t, { type Test } from 'tap';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { zeroHere } from '../../helpers/cli.js';
import { oneLongLine, SLOW_PATTERN } from '../../helpers/long_line.js';
import { waitForCpuWork } from '../../helpers/processes.js';
import { fakeApi } from '../../helpers/sse-server.js';
import { openaiStream } from '../../helpers/wire.js';
import { cleanEnv, eventTypes, jsonLines, nth, tempDir, writeScript, zero } from '../../helpers/zero.js';

// Write tools and permissions, end to end: what the model is offered, what runs, what the disk shows. The runs are
// in-process (zeroHere); the signals' cases spawn bin/zero.

const editNotes = { id: 'c1', name: 'edit_file', args: { path: 'notes.txt', old_string: 'draft', new_string: 'final' } };

async function exec(t: Test, turns: unknown[], args: string[], files: Record<string, string> = { 'notes.txt': 'a draft note\n' }) {
  const dir = t.testdir(files);
  const script = writeScript(dir, turns, '.script.jsonl');
  const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, ...args, 'go']);
  return { ...result, events: jsonLines(result.stdout), dir };
}

t.test('default mode (--auto low): reads and writes are offered; bash too where the sandbox works (here: none)', async (t) => {
  const api = await fakeApi([{ sse: openaiStream({ text: ['ok'] }) }]);
  t.teardown(() => api.close());
  const result = await zeroHere(['exec', '-o', 'stream-json', 'hi'], { env: cleanEnv({ OPENAI_BASE_URL: `${api.url}/v1`, ZERO_BWRAP: '/nonexistent/bwrap' }) });
  t.equal(result.code, 0);
  const offered = (api.received[0]?.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
  t.same(offered, ['read_file', 'list_directory', 'glob', 'grep', 'write_file', 'edit_file', 'apply_patch']);
});

t.test('default mode (--auto low): an edit inside the working directory runs, as in Zero', async (t) => {
  const { events, code, dir } = await exec(t, [{ toolCalls: [editNotes] }, { text: 'Edited.' }], []);
  t.equal(code, 0);
  t.match(nth(events, 'tool_result'), { status: 'ok', output: 'Replaced 1 occurrence in "notes.txt".' });
  t.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'a final note\n');
});

// Schema version 1 has no permission_request, permission_decision or checkpoint, and its tool_result no name or changedFiles.
t.test('default mode without a sandbox: bash called anyway, in schema version 1 output exactly as before', async (t) => {
  const bashCall = { id: 'b1', name: 'bash', args: { command: 'echo overwritten > notes.txt' } };
  const dir = t.testdir({ 'notes.txt': 'a draft note\n' });
  const script = writeScript(dir, [{ toolCalls: [bashCall] }, { text: 'I may not run it.' }], '.script.jsonl');
  const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], { env: cleanEnv({ ZERO_BWRAP: '/nonexistent/bwrap' }) });
  const events = jsonLines(result.stdout);
  t.equal(result.code, 0);
  t.same(eventTypes(events), ['run_start', 'warning', 'tool_call', 'tool_result', 'text', 'final', 'run_end']);
  t.same(Object.keys(nth(events, 'tool_result')!), ['schemaVersion', 'type', 'runId', 'id', 'status', 'output', 'truncated']);
  t.match(nth(events, 'tool_result'), {
    schemaVersion: 1,
    id: 'b1',
    status: 'error',
    output: 'Permission required: bash runs shell commands outside a sandbox, which this run does not allow. Re-run with --auto high or --skip-permissions-unsafe to allow it.',
    truncated: false,
  });
  t.notMatch(result.stdout, /"(permission_request|permission_decision|checkpoint|changedFiles)"/);
  t.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'a draft note\n');
});

t.test('--auto high: a write in schema version 1 has no checkpoint and no changedFiles', async (t) => {
  const { events, code, stdout } = await exec(t, [{ toolCalls: [editNotes] }, { text: 'Edited.' }], ['--auto', 'high']);
  t.equal(code, 0);
  t.same(Object.keys(nth(events, 'tool_result')!), ['schemaVersion', 'type', 'runId', 'id', 'status', 'output', 'truncated']);
  t.notMatch(stdout, /"(checkpoint|changedFiles)"/);
});

for (const flag of [['--skip-permissions-unsafe'], ['--auto', 'high']]) {
  t.test(`${flag.join(' ')}: the edit runs, the disk shows it, and a warning follows run_start`, async (t) => {
    const { events, code, dir } = await exec(t, [{ toolCalls: [editNotes] }, { text: 'Edited.' }], flag);
    t.equal(code, 0);
    t.same(eventTypes(events), ['run_start', 'warning', 'tool_call', 'tool_result', 'text', 'final', 'run_end']);
    t.match(events[1], { message: /^Unsafe permissions are active.* Shell commands run / });
    t.match(nth(events, 'tool_result'), { status: 'ok', output: 'Replaced 1 occurrence in "notes.txt".' });
    t.equal(readFileSync(join(dir, 'notes.txt'), 'utf8'), 'a final note\n');
  });
}

t.test('--add-dir lets write tools change a second directory; others stay out of reach', async (t) => {
  const outside = tempDir(t, { 'other.txt': 'x' });
  const write = (path: string, id: string) => ({ id, name: 'write_file', args: { path, content: 'written\n' } });
  const { events, code, dir } = await exec(t, [{ toolCalls: [write(join(outside, 'new.txt'), 'w1'), write('../escape.txt', 'w2')] }, { text: 'done' }], ['--auto', 'high', '--add-dir', outside]);
  t.equal(code, 0);
  t.equal(readFileSync(join(outside, 'new.txt'), 'utf8'), 'written\n');
  t.match(nth(events, 'tool_result', 1), { status: 'error', output: /outside the working directory and the --add-dir directories/ });
  t.notOk(existsSync(join(dir, '..', 'escape.txt')));
});

// A line over 512 MiB was a RangeError with a raw stack, exit 1, no run_end, the session left open.
t.test('read_file of a file with one 600 MB line: its start, the cut said, and the run ends as usual', { skip: process.platform === 'win32' }, async (t) => {
  const dir = t.testdir({});
  const huge = join(dir, 'huge.txt');
  writeFileSync(huge, 'a'.repeat(8192));
  execFileSync('truncate', ['-s', '600M', huge]); // sparse: the rest of the line is NUL bytes, past the binary sniff
  const script = writeScript(dir, [{ toolCalls: [{ id: 'r1', name: 'read_file', args: { path: 'huge.txt' } }] }, { text: 'Read it.' }], '.script.jsonl');
  const home = join(dir, '.home');
  const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], { env: cleanEnv({ ZERO_HOME: home }) });
  const events = jsonLines(result.stdout);
  t.equal(result.code, 0, result.stderr);
  t.match(nth(events, 'tool_result'), { id: 'r1', status: 'ok', truncated: true, output: /^     1\ta{8192}\0+\n\(Line 1 is cut: / });
  t.match(events.at(-1), { type: 'run_end', status: 'success', exitCode: 0 });
  const sessions = jsonLines((await zeroHere(['sessions', 'list', '-o', 'json'], { env: cleanEnv({ ZERO_HOME: home }) })).stdout);
  t.match(sessions, [{ events: events.length + 1 }], 'the session was closed with the run: its prompt and every event');
});

const usageErrors: [string, string[], RegExp][] = [
  ['an invalid --auto', ['--auto', 'max'], /Invalid value for --auto: "max"\. Expected one of: low, medium, high\./],
  ['a malformed tool name', ['--disabled-tools', 'bash;rm'], /Invalid tool name in --disabled-tools: "bash;rm"/],
  ['a tool both enabled and disabled', ['--enabled-tools', 'grep', '--disabled-tools', 'grep,bash'], /Tool "grep" is both in --enabled-tools and in --disabled-tools\./],
  ['a missing --add-dir', ['--add-dir', 'nowhere'], /--add-dir directory not found: nowhere/],
  ['an unknown tool name', ['--enabled-tools', 'read_file,web_search'], /Unknown tool "web_search" in --enabled-tools: this run has read_file, /],
];
for (const [what, args, message] of usageErrors) {
  t.test(`usage error: ${what}`, async (t) => {
    const { events, code } = await exec(t, [{ text: 'unused' }], args);
    t.equal(code, 2);
    t.match(events, [{ type: 'error', code: 'usage_error', message }, { type: 'run_end', exitCode: 2 }]);
  });
}

t.test('SIGTERM while bash runs: the whole process group is killed before run_end', async (t) => {
  const dir = t.testdir({});
  const script = writeScript(dir, [{ toolCalls: [{ id: 'b1', name: 'bash', args: { command: 'sleep 60 & echo $! > child.pid; wait' } }] }, { text: 'unreachable' }], '.script.jsonl');
  const result = await zero(['exec', '-o', 'stream-json', '--skip-permissions-unsafe', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], {
    // the unconfined path (the sandboxed one: exec.sandbox.test.ts): the pid the command writes is the host's
    onSpawn: (child) => {
      void (async () => {
        while (!existsSync(join(dir, 'child.pid')) || readFileSync(join(dir, 'child.pid'), 'utf8').trim() === '') await sleep(20);
        child.kill('SIGTERM');
      })();
    },
  });
  t.equal(result.code, 143);
  const events = jsonLines(result.stdout);
  t.same(eventTypes(events), ['run_start', 'warning', 'tool_call', 'tool_result', 'error', 'run_end'], 'the warning: the unsafe flag, the shell unsandboxed');
  t.match(nth(events, 'tool_result'), { status: 'error', output: /cancelled/ });
  t.match(events.at(-2), { code: 'cancelled' });
  const pid = Number(readFileSync(join(dir, 'child.pid'), 'utf8'));
  const alive = (() => {
    try {
      process.kill(pid, 0);
      return !/^\d+ \(.*\) [ZX] /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  })();
  t.notOk(alive, 'the background child died with its group');
});

/** Sends SIGINT once the tool_call line is printed and `ready` (if given) has resolved. */
function interruptAfterToolCall(child: ChildProcess, ready = async () => {}): void {
  let seen = '';
  child.stdout!.on('data', (chunk: Buffer | string) => {
    const hadCall = seen.includes('"tool_call"');
    seen += chunk.toString();
    if (!hadCall && seen.includes('"tool_call"')) void ready().then(() => child.kill('SIGINT'));
  });
}

// On a backtracking regex engine this grep holds the event loop for days (2^60 steps), so SIGINT is never handled
// and the test times out; zero must stay responsive and end the run as cancelled.
t.test('SIGINT during a grep with a catastrophic pattern: the run ends cancelled at once', { timeout: 30_000 }, async (t) => {
  const dir = t.testdir({ 'long.txt': `${'a'.repeat(60)}!\n` });
  const grepCall = { id: 'g1', name: 'grep', args: { pattern: '(a+)+$', path: 'long.txt' } };
  const script = writeScript(dir, [{ toolCalls: [grepCall] }, { delayMs: 60_000, text: 'unreachable' }], '.script.jsonl');
  const result = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], {
    onSpawn: (child) => interruptAfterToolCall(child),
  });
  t.equal(result.code, 130);
  const events = jsonLines(result.stdout);
  t.same(eventTypes(events), ['run_start', 'tool_call', 'tool_result', 'error', 'run_end']);
  t.match(nth(events, 'tool_result'), { output: /^No matches for \/\(a\+\)\+\$\/ in "long.txt"\.$|cancel|abort/i });
  t.match(events.at(-2), { code: 'cancelled' });
});

// Matching this 4 MB line takes RE2 over a minute; on the main thread it held the event loop all that time, so the
// SIGINT went unheard and the test timed out. In grep's worker thread it is cut short: cancelled, not timed out.
// The SIGINT waits for 0.5 s of CPU work after the tool_call, so that it comes while the line is being matched:
// reading 4 MB takes a few ms.
t.test('SIGINT during a grep of one 4 MB line with a slow pattern: the run ends cancelled', { timeout: 20_000, skip: process.platform !== 'linux' }, async (t) => {
  const dir = t.testdir({});
  writeFileSync(join(dir, 'bundle.min.js'), oneLongLine());
  const grepCall = { id: 'g1', name: 'grep', args: { pattern: SLOW_PATTERN, path: 'bundle.min.js' } };
  const script = writeScript(dir, [{ toolCalls: [grepCall] }, { delayMs: 60_000, text: 'unreachable' }], '.script.jsonl');
  const result = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, 'go'], {
    onSpawn: (child) => interruptAfterToolCall(child, () => waitForCpuWork(child.pid!, 500)),
  });
  t.equal(result.code, 130);
  const events = jsonLines(result.stdout);
  t.same(eventTypes(events), ['run_start', 'tool_call', 'tool_result', 'error', 'run_end']);
  t.match(nth(events, 'tool_result'), { status: 'error', output: 'Cancelled by SIGINT.' }, 'ended by the SIGINT, not by the time limit or the end of the search');
  t.match(events.at(-2), { code: 'cancelled' });
});

// The script line is written as text: JSON.stringify of 5000 levels overflows the stack, as the redaction of
// such a tool_call did ("Maximum call stack size exceeded", exit 1).
t.test('tool arguments nested 5000 deep: an error tool_result, the call without args, and the run goes on', async (t) => {
  const dir = t.testdir({});
  const deepCall = `{"toolCalls":[{"id":"d1","name":"read_file","args":{"path":${'['.repeat(5000)}${']'.repeat(5000)}}}]}`;
  writeFileSync(join(dir, '.script.jsonl'), `${deepCall}\n${JSON.stringify({ expect: { contains: ['nested more than 256 levels deep'] }, text: 'I will retry.' })}\n`);
  const result = await zeroHere(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', join(dir, '.script.jsonl'), '-C', dir, 'go']);
  t.equal(result.code, 0);
  const events = jsonLines(result.stdout);
  t.same(eventTypes(events), ['run_start', 'tool_call', 'tool_result', 'text', 'final', 'run_end']);
  t.notOk('args' in nth(events, 'tool_call')!);
  t.match(nth(events, 'tool_result'), { status: 'error', output: 'The tool arguments are nested more than 256 levels deep; send them with less nesting.' });
});
