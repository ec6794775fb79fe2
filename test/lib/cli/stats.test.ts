import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { protocolExamples, V2_RUN } from '../../helpers/protocol-examples.js';
import { recordedConversation } from '../../helpers/conversation.js';
import { zeroHere } from '../../helpers/cli.js';
import { FOREIGN_RUN_ID, writeForeignLog } from '../../helpers/foreign-log.js';
import { recordSession } from '../../helpers/sessions.js';
import { jsonLines, writeScript } from '../../helpers/zero.js';

// Each check runs zero in this process (what it prints and its exit code are the same); bin/zero itself is run
// where only a process shows the behaviour.
const zero = zeroHere;

// End to end: stats of runs recorded by `zero exec -o stream-json` (scripted provider).

const TOOL_RUN = [
  { chunks: ['Let me look.'], toolCalls: [{ id: 'c1', name: 'read_file', args: { path: 'notes.txt' } }, { id: 'c2', name: 'list_directory', args: {} }], usage: { promptTokens: 5, completionTokens: 3 } },
  { text: 'The launch moves to Friday.', usage: { promptTokens: 20, completionTokens: 7 } },
];
const FAILING_RUN = [{ chunks: ['Half'], error: { message: 'overloaded', status: 529 } }];

async function recorded(t: Test, turns: unknown[]) {
  const dir = t.testdir({ 'notes.txt': 'the launch moves to Friday\n' });
  const script = writeScript(dir, turns);
  const { stdout } = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, 'Summarise notes.txt']);
  return { dir, stdout, runId: String(jsonLines(stdout)[0]!.runId) };
}

t.test('per run: turns, tools, tokens, outcome', async (t) => {
  const ok = await recorded(t, TOOL_RUN);
  const failing = await recorded(t, FAILING_RUN);
  const file = join(ok.dir, 'both.jsonl');
  writeFileSync(file, ok.stdout + failing.stdout);
  const json = await zero(['stats', '-o', 'json', file]);
  t.equal(json.code, 0);
  t.match(jsonLines(json.stdout), [
    { type: 'run_stats', run_id: ok.runId, provider: 'scripted', user_turns: 1, model_turns: 2, tool_calls: 2, tools_by_name: { read_file: 1, list_directory: 1 }, tools_by_side_effect: { read: 2 }, tokens: { prompt: 25, completion: 10, total: 35 }, outcome: 'success', exit_code: 0 },
    { type: 'run_stats', run_id: failing.runId, model_turns: 1, tool_calls: 0, outcome: 'error', exit_code: 3, error_code: 'provider_error' },
  ]);
  const text = await zero(['stats', file]);
  t.equal(text.code, 0);
  t.match(text.stdout, new RegExp(`run ${ok.runId}\\n`));
  t.match(text.stdout, /outcome +success \(exit 0\)/);
  t.match(text.stdout, /outcome +error \(exit 3\), error provider_error/);
  t.match(text.stdout, /by name +read_file 1, list_directory 1/);
  t.match(text.stdout, /tokens +prompt 25, completion 10, total 35/);
});

t.test('pretty-printed, array-wrapped and broken logs', async (t) => {
  const ok = await recorded(t, TOOL_RUN);
  const events = jsonLines(ok.stdout);
  const expected = jsonLines((await zero(['stats', '-o', 'json', '-'], { stdin: ok.stdout })).stdout);
  t.same(expected.map((e) => e.type), ['run_stats', 'cost_totals']);
  for (const [name, text] of Object.entries({ pretty: events.map((e) => JSON.stringify(e, null, 2)).join(''), array: JSON.stringify(events, null, 2) })) {
    t.same(jsonLines((await zero(['stats', '-o', 'json', '-'], { stdin: text })).stdout), expected, name);
  }
  const lines = ok.stdout.trimEnd().split('\n');
  const torn = lines.slice(0, -1).join('\n') + '\n' + lines.at(-1)!.slice(0, 30);
  const result = await zero(['stats', '-'], { stdin: torn });
  t.equal(result.code, 0);
  t.match(result.stdout, /outcome +unfinished/, 'missing run_end: unfinished');
  t.match(result.stdout, /1 line skipped/, 'the torn line is counted as skipped');
  const extra = [lines[0], lines[1]!.replace('{', '{"odd":1,'), ...lines.slice(2)].join('\n');
  t.match((await zero(['stats', '-'], { stdin: extra })).stdout, /1 line skipped/, 'an unknown field: skipped');
});

t.test('a session file: its two runs, its prompts not skipped', async (t) => {
  const session = await recordSession(t);
  t.match(jsonLines((await zero(['stats', '-o', 'json', session.file])).stdout), [
    { type: 'run_stats', run_id: session.runIds[0], model_turns: 2, tool_calls: 1, outcome: 'success' },
    { type: 'run_stats', run_id: session.runIds[1], model_turns: 1, tool_calls: 0, outcome: 'success' },
  ]);
  const text = await zero(['stats', session.file]);
  t.equal(text.code, 0);
  t.notMatch(text.stdout, /skipped/);
});

t.test('usage errors exit 2', async (t) => {
  t.equal((await zero(['stats', '/nonexistent/x.jsonl'])).code, 2);
  t.equal((await zero(['stats', '--framing', 'csv', '-'], { stdin: '' })).code, 2);
  t.equal((await zero(['stats', '-'], { stdin: '' })).stdout, 'No runs.\n');
});

t.test('a version 2 log: its events counted, none skipped', async (t) => {
  const text = await zero(['stats', '-'], { stdin: V2_RUN });
  t.equal(text.code, 0);
  t.notMatch(text.stdout, /skipped/);
  t.match(jsonLines((await zero(['stats', '-o', 'json', '-'], { stdin: V2_RUN })).stdout), [
    { run_id: 'run_20261201091000_v2run1', provider: 'anthropic', model_turns: 3, tool_calls: 2, tools_by_name: { edit_file: 1, write_file: 1 }, tools_by_side_effect: { write: 2 }, tokens: { prompt: 2703, completion: 135, total: 2838 }, outcome: 'success', exit_code: 0 },
  ]);
});

t.test('several files, session folders among them, read in order as one log; a conversation\'s user turns', async (t) => {
  const { dir } = recordedConversation();
  const [first] = protocolExamples('output v1');
  const log = join(t.testdir({ 'run.jsonl': first! }), 'run.jsonl');
  const json = await zeroHere(['stats', '-o', 'json', log, dir]);
  t.equal(json.code, 0, json.stderr);
  t.match(jsonLines(json.stdout), [
    { run_id: JSON.parse(first!.split('\n')[0]!).runId, user_turns: 1 },
    { run_id: /^run_/, user_turns: 5, interrupted_turns: 2, model_turns: 6, tool_calls: 3, tools_by_name: { write_file: 2, bash: 1 }, outcome: 'success' },
  ]);
  t.match((await zeroHere(['stats', dir])).stdout, /\n  user turns +5 \(2 interrupted\)\n  model turns +6\n/);
});

t.test('a log of another program (sess_… session ids, a run id not of zero\'s form): every line validate accepts is counted', async (t) => {
  const log = writeForeignLog(t.testdir());
  const validated = await zero(['validate', log.file]);
  t.equal(validated.code, 0, validated.stdout);
  const json = await zero(['stats', '-o', 'json', log.file]);
  t.equal(json.code, 0);
  const runs = jsonLines(json.stdout).filter((line) => line.type === 'run_stats');
  t.equal(runs.length, log.runs);
  t.match(runs.at(-1), { run_id: FOREIGN_RUN_ID, outcome: 'success' });
  t.notMatch((await zero(['stats', log.file])).stdout, /skipped/);
});

t.test('--max-line-bytes, as every log command takes it: a longer line is a usage error naming the flag', async (t) => {
  const dir = t.testdir();
  const log = join(dir, 'run.jsonl');
  writeFileSync(log, `${JSON.stringify({ schemaVersion: 1, type: 'warning', runId: 'run_20260101100000_abcdef', message: 'x'.repeat(500) })}\n`);
  const refused = await zero(['stats', '--max-line-bytes', '100', log]);
  t.equal(refused.code, 2);
  t.match(refused.stderr, /longer than 100 bytes \(--max-line-bytes\)/);
  t.not((await zero(['stats', '--max-line-bytes', '1000', log])).code, 2, 'read once the limit is raised');
});
