import t from 'tap';
import { createLogChecker, createLogReport, summaryLine } from '../../../lib/logs/validate.js';
import { applyStep } from '../../../lib/streams.js';
import type { LogItem } from '../../../lib/logs/framing.js';
import { protocolExamples } from '../../helpers/protocol-examples.js';

const start = { schemaVersion: 1, type: 'run_start', runId: 'run_20260101000000_abcdef', cwd: '/', provider: 'p', model: 'm' };
const end = { schemaVersion: 1, type: 'run_end', runId: 'run_20260101000000_abcdef', status: 'success', exitCode: 0 };

t.test('the checker: schema problems, order problems, not-JSON lines', async (t) => {
  const checker = createLogChecker();
  t.same(checker.item({ lineNo: 1, value: start }), []);
  t.match(checker.item({ lineNo: 2, value: { ...end, extra: 1 } }), [{ lineNo: 2, problem: 'extra: Unrecognized key: "extra"' }]);
  t.match(checker.item({ lineNo: 3, raw: 'x', problem: 'not a JSON object' }), [{ lineNo: 3, problem: 'not a JSON object' }]);
  t.same(checker.end(), []);
  t.same(checker.summary(), { valid: false, events: 2, runs: 1, problems: 2 });
  const input = createLogChecker('input');
  t.same(input.item({ lineNo: 1, value: { schemaVersion: 1, type: 'prompt', content: 'hi' } }), []);
});

t.test('the report, text and json, with a cap', async (t) => {
  const items: LogItem[] = [1, 2, 3].map((lineNo) => ({ lineNo, raw: 'x', problem: 'not a JSON object' }));
  const collect = async (format: 'text' | 'json') => {
    const report = createLogReport({ format, maxProblems: 2 });
    const out = applyStep(report, items).join('');
    return { out, summary: report.summary()! };
  };
  const text = await collect('text');
  t.equal(text.out, 'line 1: not a JSON object\nline 2: not a JSON object\ninvalid: 3 problems (2 shown) in 0 events, 0 runs\n');
  t.equal(text.summary.valid, false);
  const json = await collect('json');
  t.equal(json.out.split('\n').filter(Boolean).length, 3);
  t.match(JSON.parse(json.out.split('\n')[2]!), { type: 'summary', problems: 3 });
  t.equal(summaryLine({ valid: true, events: 1, runs: 1, problems: 0 }, 0), 'valid: 1 event, 1 run\n');
});

t.test('values quoted in problem messages are redacted', async (t) => {
  const token = ['ghp_', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('');
  const loaded = 'zk7731Qm7TfRp2LxWc9VbN3sYdHg6JkAe5Uo';
  const call = { schemaVersion: 1, type: 'tool_call', runId: start.runId, id: `id_${loaded}`, name: 'bash', args: {} };
  const result = { schemaVersion: 1, type: 'tool_result', runId: start.runId, id: `x_${token}`, status: 'ok', output: '', truncated: false };
  const items: LogItem[] = [start, call, result, end].map((value, index) => ({ lineNo: index + 1, raw: JSON.stringify(value), value }));
  const out = applyStep(createLogReport({ format: 'json', redaction: { secrets: [loaded] } }), items).join('');
  t.match(out, 'answers no tool_call', 'the problems are reported');
  t.notMatch(out, token);
  t.notMatch(out, loaded);
});

const itemsOf = (jsonl: string): LogItem[] => jsonl.trimEnd().split('\n').map((raw, index) => ({ lineNo: index + 1, raw, value: JSON.parse(raw) }));
const problemsOf = (kind: 'input' | 'output', items: LogItem[]) => {
  const checker = createLogChecker(kind);
  return [...items.flatMap((item) => checker.item(item)), ...checker.end()];
};

t.test('version 2: every run and input of docs/protocol.md checks clean, each line against its own version, failures before the start included', async (t) => {
  const runs = protocolExamples('output v2');
  t.ok(runs.some((run) => run.startsWith('{"schemaVersion":2,"type":"error"')), 'a failure before the start among them');
  for (const run of runs) t.same(problemsOf('output', itemsOf(run)), [], run.split('\n')[0]);
  t.same(problemsOf('output', itemsOf(runs.join('') + protocolExamples('output v1').at(-1)!)), [], 'v2 and v1 runs in one log');
  t.same(problemsOf('input', itemsOf(protocolExamples('input v2').join(''))), []);
});

t.test('a run that changes version, input that mixes them: the line that differs', async (t) => {
  const [v2run] = protocolExamples('output v2').filter((run) => run.includes('"reasoning"'));
  const lines = v2run!.trimEnd().split('\n');
  const mixed = [lines[0], lines[1]!.replace('"schemaVersion":2', '"schemaVersion":1'), ...lines.slice(2)].join('\n');
  const runId = JSON.parse(lines[0]!).runId;
  t.match(problemsOf('output', itemsOf(mixed)), [{ lineNo: 2, problem: `schemaVersion: Expected 2, received 1 (run ${runId} is version 2 from line 1)` }]);
  const input = `${protocolExamples('input v1')[0]}${protocolExamples('input v2')[0]}`;
  t.same(problemsOf('input', itemsOf(input)), [
    { lineNo: 3, problem: 'schemaVersion: Expected 1, received 2 (the input is version 1 from line 1)' },
    { lineNo: 4, problem: 'schemaVersion: Expected 1, received 2 (the input is version 1 from line 1)' },
    { lineNo: 5, problem: 'schemaVersion: Expected 1, received 2 (the input is version 1 from line 1)' },
  ]);
  t.same(problemsOf('input', itemsOf('{"schemaVersion":3,"type":"prompt","content":"x"}')), [{ lineNo: 1, problem: 'schemaVersion: Expected 1 or 2, received 3' }]);
});

t.test('a session file (docs/protocol.md §11.5): its prompts are input events between runs, valid', async (t) => {
  const [session] = protocolExamples('session v1');
  t.same(problemsOf('output', itemsOf(session!)), []);
  const checker = createLogChecker();
  itemsOf(session!).forEach((item) => checker.item(item));
  checker.end();
  t.same(checker.summary(), { valid: true, events: 10, runs: 2, problems: 0 }, 'its prompts are events, of no run');
  const lines = session!.trimEnd().split('\n');
  t.same(problemsOf('output', itemsOf([lines[1], lines[0], ...lines.slice(2)].join('\n'))), [
    { lineNo: 2, problem: `run ${JSON.parse(lines[1]!).runId}: prompt inside the run (a session file's prompt comes between runs)` },
  ]);
  t.same(problemsOf('output', itemsOf(lines[0]!.replace('"What is this repo?"', '""'))), [{ lineNo: 1, problem: 'content: Must not be empty' }]);
});

t.test('no events, or no runs in an output log: invalid, said in the summary', async (t) => {
  const summaryOf = (kind: 'input' | 'output', items: LogItem[]) => {
    const report = createLogReport({ kind });
    return { out: applyStep(report, items).join(''), summary: report.summary() };
  };
  t.same(summaryOf('output', []), { out: 'invalid: no events\n', summary: { valid: false, events: 0, runs: 0, problems: 0 } });
  t.same(summaryOf('input', []).out, 'invalid: no events\n');
  const prompts = itemsOf('{"schemaVersion":1,"type":"prompt","content":"hi"}\n{"schemaVersion":1,"type":"prompt","content":"go"}');
  t.same(summaryOf('output', prompts), { out: 'invalid: no runs in 2 events (only input events)\n', summary: { valid: false, events: 2, runs: 0, problems: 0 } });
  t.same(summaryOf('input', prompts).out, 'valid: 2 events, 0 runs\n');
});

t.test('the report: problems in line order, each as soon as nothing open can give one at an earlier line', async (t) => {
  const runId = start.runId;
  const call = { schemaVersion: 1, type: 'tool_call', runId, id: 'c1', name: 'bash', args: {} };
  const items: LogItem[] = [
    { lineNo: 1, value: start },
    { lineNo: 2, value: call },
    { lineNo: 3, raw: 'x', problem: 'not a JSON object' },
    { lineNo: 4, value: { ...call, id: 'c2', extra: 1 } },
  ];
  const report = createLogReport();
  const out: string[] = [];
  for (const item of items) report.write(item, (line) => void out.push(line));
  t.same(out, [], 'the call at line 2 may still go unanswered: nothing after it is settled');
  report.end!((line) => void out.push(line));
  t.same(out.map((line) => line.split(':')[0]), ['line 2', 'line 3', 'line 4', 'line 4', 'line 4', 'invalid'], 'the unanswered call at its line, the run\'s missing run_end at its last');
  const streamed: string[] = [];
  const live = createLogReport();
  [{ lineNo: 1, raw: 'x', problem: 'not a JSON object' }, { lineNo: 2, value: start }, { lineNo: 3, value: end }].forEach((item) => live.write(item as LogItem, (line) => void streamed.push(line)));
  t.same(streamed, ['line 1: not a JSON object\n'], 'out once a later line has come');
});

t.test('the report holds no more problems than it may show, and shows the first in line order', async (t) => {
  const call = (lineNo: number): LogItem => ({ lineNo, value: { schemaVersion: 1, type: 'tool_call', runId: start.runId, id: `c${lineNo}`, name: 'bash', args: {} } });
  const junk = (lineNo: number): LogItem => ({ lineNo, raw: 'x', problem: 'not a JSON object' });
  const items = [{ lineNo: 1, value: start }, call(2), ...Array.from({ length: 1000 }, (_, index) => junk(index + 3)), call(1003)];
  const text = applyStep(createLogReport({ maxProblems: 3 }), items).join('');
  t.match(text, /^line 2: run \S+: tool_call "c2" has no tool_result before the end of the log\nline 3: not a JSON object\nline 4: not a JSON object\ninvalid: 1003 problems \(3 shown\)/);
});
