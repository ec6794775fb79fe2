import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { protocolExamples, V2_RUN } from '../../helpers/protocol-examples.js';
import { recordSession } from '../../helpers/sessions.js';
import { zeroHere } from '../../helpers/cli.js';
import { jsonLines, writeScript, zero as zeroProcess } from '../../helpers/zero.js';

// Each check runs zero in this process (what it prints and its exit code are the same); bin/zero itself is run
// where only a process shows the behaviour: a log on a piped stdin.
const zero = zeroHere;

// End to end: logs recorded by `zero exec -o stream-json` (scripted provider) and hand-made broken ones.

const TOOL_RUN = [
  { chunks: ['Let me look.'], toolCalls: [{ id: 'call_1', name: 'read_file', args: { path: 'notes.txt' } }] },
  { text: 'The launch moves to Friday.' },
];

async function recorded(t: Test, turns: unknown[] = TOOL_RUN) {
  const dir = t.testdir({ 'notes.txt': 'the launch moves to Friday\n' });
  const script = writeScript(dir, turns);
  const { stdout } = await zero(['exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', dir, 'Summarise notes.txt']);
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  return { dir, stdout, lines: stdout.trimEnd().split('\n'), write };
}

t.test('recorded runs are valid, whatever the framing', async (t) => {
  const { stdout, write } = await recorded(t);
  const failing = await recorded(t, [{ chunks: ['Half'], error: { message: 'overloaded', status: 529 } }]);
  const events = jsonLines(stdout);
  const files = {
    jsonl: write('run.jsonl', stdout),
    'two runs': write('two.jsonl', stdout + failing.stdout),
    pretty: write('pretty.json', events.map((e) => JSON.stringify(e, null, 2)).join('')),
    'pretty, newline-separated': write('pretty2.json', events.map((e) => JSON.stringify(e, null, 2)).join('\n')),
    array: write('array.json', JSON.stringify(events, null, 2)),
    'one-line array': write('array1.json', JSON.stringify(events)),
  };
  for (const [name, file] of Object.entries(files)) {
    const result = await zero(['validate', file]);
    t.equal(result.code, 0, `${name}: exit 0`);
    t.match(result.stdout, /^valid: \d+ events, (1 run|2 runs)\n$/, `${name}: one summary line`);
  }
  const piped = await zeroProcess(['validate'], { stdin: stdout });
  t.equal(piped.code, 0, 'stdin');
  t.equal((await zeroProcess(['validate', '-'], { stdin: stdout })).code, 0, '- is stdin');
  const json = await zero(['validate', '-o', 'json', files.jsonl]);
  t.same(jsonLines(json.stdout), [{ type: 'summary', valid: true, events: events.length, runs: 1, problems: 0 }]);
});

t.test('broken logs: each problem on its line', async (t) => {
  const { lines, write } = await recorded(t);
  const runId = String(JSON.parse(lines[0]!).runId);
  const callLine = lines.findIndex((line) => line.includes('"tool_call"'));
  const cases: [string, string, RegExp[]][] = [
    ['missing run_end', lines.slice(0, -1).join('\n') + '\n', [new RegExp(`^line ${lines.length - 1}: run ${runId}: no run_end`)]],
    ['two run_ends', [...lines, lines.at(-1)].join('\n') + '\n', [new RegExp(`^line ${lines.length + 1}: run ${runId}: second run_end`)]],
    ['unanswered tool_call', lines.filter((line) => !line.includes('"tool_result"')).join('\n') + '\n', [new RegExp(`^line ${callLine + 1}: run ${runId}: tool_call "call_1" has no tool_result before text`)]],
    ['unknown field', [lines[0]!.replace('"cwd"', '"colour":"blue","cwd"'), ...lines.slice(1)].join('\n') + '\n', [/^line 1: colour: Unrecognized key: "colour"/]],
    ['wrong schemaVersion', [lines[0], lines[1]!.replace('"schemaVersion":1', '"schemaVersion":2'), ...lines.slice(2)].join('\n') + '\n', [/^line 2: schemaVersion: Expected 1, received 2/]],
    ['torn last line', lines.join('\n') + '\n' + lines[1]!.slice(0, 25), [new RegExp(`^line ${lines.length + 1}: not a JSON object`)]],
    ['a run without run_start', lines.slice(1).join('\n') + '\n', [new RegExp(`^line 1: run ${runId}: first event is text, expected run_start`)]],
    ['a runId changing mid-run', [lines[0], lines[1]!.replace(runId, 'run_other'), ...lines.slice(2)].join('\n') + '\n', [/^line 2: run run_other: first event is text/, /^line 2: run run_other starts while run/]],
  ];
  for (const [name, text, expected] of cases) {
    const result = await zero(['validate', write('broken.jsonl', text)]);
    t.equal(result.code, 1, `${name}: exit 1`);
    const out = result.stdout.trimEnd().split('\n');
    for (const pattern of expected) t.ok(out.some((line) => pattern.test(line)), `${name}: ${pattern}`);
    t.match(out.at(-1), /^invalid: \d+ problems? in /, `${name}: the summary last`);
    const json = jsonLines((await zero(['validate', '-o', 'json', write('broken.jsonl', text)])).stdout);
    t.match(json.at(-1), { type: 'summary', valid: false }, `${name}: -o json summary`);
    t.ok(json.slice(0, -1).every((p) => p.type === 'problem' && typeof p.line === 'number' && typeof p.problem === 'string'), `${name}: -o json problems`);
  }
});

t.test('pretty-printed: line numbers are where each value starts', async (t) => {
  const { lines, write } = await recorded(t);
  const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  events[2] = { ...events[2], extra: true };
  const pretty = events.map((e) => JSON.stringify(e, null, 2)).join('\n');
  const start = pretty.split('\n').findIndex((line, i, all) => line === '{' && all.slice(0, i).filter((l) => l === '{').length === 2) + 1;
  const result = await zero(['validate', write('pretty.json', pretty)]);
  t.equal(result.code, 1);
  t.match(result.stdout, new RegExp(`^line ${start}: extra: Unrecognized key`));
  const array = await zero(['validate', write('array.json', JSON.stringify(events, null, 2) + '\n')]);
  t.match(array.stdout, /^line \d+: extra: Unrecognized key/);
  const torn = await zero(['validate', write('torn.json', pretty.slice(0, -30))]);
  t.equal(torn.code, 1);
  t.match(torn.stdout, /not JSON/);
});

t.test('--max-problems and --input', async (t) => {
  const { write } = await recorded(t);
  const junk = write('junk.txt', Array.from({ length: 80 }, (_, i) => `junk ${i}`).join('\n'));
  const all = await zero(['validate', junk]);
  t.equal(all.stdout.split('\n').filter((line) => line.startsWith('line ')).length, 50, 'default 50');
  t.match(all.stdout, /invalid: 80 problems \(50 shown\) in 0 events, 0 runs/);
  const three = await zero(['validate', '--max-problems', '3', junk]);
  t.equal(three.stdout.split('\n').filter((line) => line.startsWith('line ')).length, 3);
  const none = await zero(['validate', '--max-problems', '0', junk]);
  t.equal(none.code, 1, '0: the verdict alone');
  t.match(none.stdout, /^invalid: 80 problems \(0 shown\) in 0 events, 0 runs\n$/);
  const input = write('input.jsonl', '{"schemaVersion":1,"type":"prompt","content":"hi"}\n{"schemaVersion":1,"type":"message","role":"user","content":"go"}\n');
  t.equal((await zero(['validate', '--input', input])).code, 0);
  t.equal((await zero(['validate', input])).code, 1, 'input events are not output events');
});

t.test('a failure before the start, as zero exec reports it, is a valid run: error, then run_end', async (t) => {
  const failed = await zero(['exec', '-o', 'stream-json', '--max-turns', 'many', 'hi']);
  t.equal(failed.code, 2);
  t.same(await zero(['validate', '-'], { stdin: failed.stdout }), { stdout: 'valid: 2 events, 1 run\n', stderr: '', code: 0, signal: null });
  const [error, end] = failed.stdout.trimEnd().split('\n');
  t.match((await zero(['validate', '-'], { stdin: [error, error!.replace('"error"', '"warning"').replace(/"code".*/, '"message":"x"}'), end].join('\n') + '\n' })).stdout, /^line 2: run run_\w+: warning in a failure before the start \(error, then run_end, and nothing else\)\n/);
});

t.test('a session file is a log: each run\'s prompt, an input event, between runs; what zero sessions show prints too', async (t) => {
  const session = await recordSession(t);
  const lines = session.text.trimEnd().split('\n');
  t.same(await zero(['validate', session.file]), { stdout: `valid: ${lines.length} events, 2 runs\n`, stderr: '', code: 0, signal: null });
  const shown = await zero(['sessions', 'show', session.id, '-o', 'stream-json'], { env: session.env });
  t.equal(shown.code, 0);
  t.same(await zero(['validate', '-'], { stdin: shown.stdout }), { stdout: `valid: ${lines.length} events, 2 runs\n`, stderr: '', code: 0, signal: null }, 'zero sessions show ID -o stream-json | zero validate');
  const inside = [lines[0], lines[1], lines[0], ...lines.slice(2)].join('\n') + '\n';
  t.match((await zero(['validate', '-'], { stdin: inside })).stdout, new RegExp(`^line 3: run ${session.runIds[0]}: prompt inside the run \\(a session file's prompt comes between runs\\)\\n`));
  const empty = [lines[0]!.replace(/"content":"[^"]*"/, '"content":""'), ...lines.slice(1)].join('\n') + '\n';
  t.match((await zero(['validate', '-'], { stdin: empty })).stdout, /^line 1: content: /, 'a stored prompt is checked against the input schema of its version');
});

t.test('usage errors exit 2', async (t) => {
  t.equal((await zero(['validate', '/nonexistent/run.jsonl'])).code, 2);
  t.equal((await zero(['validate', '--framing', 'xml'], { stdin: '' })).code, 2);
  t.equal((await zero(['validate', '--max-problems', 'many'], { stdin: '' })).code, 2);
  const json = await zero(['validate', '-o', 'json', '--nope'], { stdin: '' });
  t.equal(json.code, 2);
});

t.test('an empty log, or one of blank lines, has no events: invalid', async (t) => {
  for (const stdin of ['', '\n\n  \n']) {
    t.same(await zero(['validate'], { stdin }), { stdout: 'invalid: no events\n', stderr: '', code: 1, signal: null }, JSON.stringify(stdin));
    t.same(jsonLines((await zero(['validate', '-o', 'json'], { stdin })).stdout), [{ type: 'summary', valid: false, events: 0, runs: 0, problems: 0 }]);
  }
  t.same(await zero(['validate', '--input'], { stdin: '' }), { stdout: 'invalid: no events\n', stderr: '', code: 1, signal: null }, '--input too');
});

t.test('problems in line order, each as soon as nothing open can give one at an earlier line', async (t) => {
  const { lines } = await recorded(t);
  const call = lines.findIndex((line) => line.includes('"tool_call"'));
  // cut after the tool_call, then a line that is not JSON: the call never gets its result
  const torn = [...lines.slice(0, call + 1), 'not JSON'].join('\n') + '\n';
  const result = await zero(['validate', '-'], { stdin: torn });
  t.match(result.stdout.trimEnd().split('\n').map((line) => Number(/^line (\d+)/.exec(line)?.[1] ?? 0)), [call + 1, call + 1, call + 2, 0], 'the call\'s line before the later one');
  t.match(result.stdout, new RegExp(`^line ${call + 1}: run \\S+: tool_call "call_1" has no tool_result before the end of the log\nline ${call + 1}: run \\S+: no run_end`));
  const capped = await zero(['validate', '--max-problems', '1', '-'], { stdin: torn });
  t.match(capped.stdout, new RegExp(`^line ${call + 1}: run \\S+: tool_call "call_1" has no tool_result before the end of the log\ninvalid: 3 problems \\(1 shown\\)`), 'the first in line order, not the first found');
});

// Built as text (JSON.stringify would overflow too); this crashed zero validate with "Maximum call stack size exceeded".
t.test('a value nested 100 000 deep is a problem line, in both framings, and the rest is checked', async (t) => {
  const { lines, write } = await recorded(t);
  const deepEvent = `{"schemaVersion":1,"type":"text","runId":"run_x","delta":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const path = write('deep.jsonl', [lines[0], deepEvent, ...lines.slice(1)].join('\n') + '\n');
  for (const framing of ['lines', 'values']) {
    const result = await zero(['validate', '--framing', framing, path]);
    t.equal(result.code, 1, `${framing}: exit 1, no crash`);
    t.match(result.stdout, /^line 2: nested more than 256 levels deep\n/, framing);
    t.match(result.stdout, new RegExp(`\\ninvalid: 1 problem in ${lines.length} events, 1 run\\n$`), `${framing}: every other event was read`);
    t.equal(result.stderr, '');
  }
});

t.test('version 2 logs: each line against the schema of its own version', async (t) => {
  const dir = t.testdir({});
  const runs = protocolExamples('output v2').filter((run) => run.includes('"run_start"'));
  const v1 = await recorded(t);
  const file = join(dir, 'v2.jsonl');
  writeFileSync(file, V2_RUN);
  t.same(await zero(['validate', file]), { stdout: 'valid: 19 events, 1 run\n', stderr: '', code: 0, signal: null }, '§11.2: reasoning, checkpoint, permission_request');
  writeFileSync(file, runs.join('') + v1.stdout);
  t.match(await zero(['validate', file]), { stdout: `valid: ${runs.join('').split('\n').length - 1 + v1.lines.length} events, ${runs.length + 1} runs\n`, code: 0 }, 'v2 runs and a v1 run in one log');
});

t.test('a run that changes version, a run_end whose exitCode disagrees: reported on their line', async (t) => {
  const dir = t.testdir({});
  const lines = V2_RUN.trimEnd().split('\n');
  const runId = JSON.parse(lines[0]!).runId;
  const file = join(dir, 'broken.jsonl');
  writeFileSync(file, [...lines.slice(0, 4), lines[4]!.replace('"schemaVersion":2', '"schemaVersion":1'), ...lines.slice(5, -1), lines.at(-1)!.replace('"exitCode":0', '"exitCode":3')].join('\n') + '\n');
  const result = await zero(['validate', file]);
  t.equal(result.code, 1);
  t.equal(
    result.stdout,
    [
      `line 5: schemaVersion: Expected 2, received 1 (run ${runId} is version 2 from line 1)`,
      `line 19: run ${runId}: run_end exitCode 3 does not agree with status success (expected 0)`,
      'invalid: 2 problems in 19 events, 1 run',
      '',
    ].join('\n'),
  );
});

t.test('--input: version 2 input files, and input that mixes versions', async (t) => {
  const dir = t.testdir({});
  const file = join(dir, 'input.jsonl');
  writeFileSync(file, protocolExamples('input v2')[0]!);
  t.same(await zero(['validate', '--input', file]), { stdout: 'valid: 3 events, 0 runs\n', stderr: '', code: 0, signal: null });
  writeFileSync(file, protocolExamples('input v1')[0]! + '{"schemaVersion":2,"type":"prompt","content":"Compare the two images."}\n');
  const mixed = await zero(['validate', '--input', file]);
  t.equal(mixed.code, 1);
  t.equal(mixed.stdout, 'line 3: schemaVersion: Expected 1, received 2 (the input is version 1 from line 1)\ninvalid: 1 problem in 3 events, 0 runs\n');
});

t.test('several files read as one log: each problem names its file and its line there', async (t) => {
  const [first, second] = protocolExamples('output v1');
  const broken = second!.split('\n').slice(1).join('\n');
  const dir = t.testdir({ 'a.jsonl': first!.trimEnd(), 'b.jsonl': `\n${broken}` });
  const [a, b] = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
  const text = await zeroHere(['validate', a, b]);
  t.equal(text.code, 1);
  const runId = JSON.parse(second!.split('\n')[0]!).runId;
  t.match(text.stdout, `${b}: line 2: run ${runId}: first event is ${JSON.parse(broken.split('\n')[0]!).type}, expected run_start\n`, 'a.jsonl ends without a newline: b.jsonl still starts on a line of its own');
  t.match(text.stdout, /^invalid: 1 problem in \d+ events, 2 runs\n$/m);
  t.match(jsonLines((await zeroHere(['validate', '-o', 'json', a, b])).stdout), [{ type: 'problem', file: b, line: 2 }, { type: 'summary', runs: 2 }]);
  t.equal((await zeroHere(['validate', a, join(dir, 'a.jsonl')])).code, 1, 'the same run twice: not one log\'s');
});
