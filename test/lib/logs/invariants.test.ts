import t from 'tap';
import { createInvariantChecker } from '../../../lib/logs/invariants.js';

const ev = (type: string, runId = 'r1', extra: Record<string, unknown> = {}) => ({ type, runId, ...extra });

function check(events: Record<string, unknown>[]) {
  const checker = createInvariantChecker();
  const problems = events.flatMap((event, index) => checker.event(event, index + 1));
  return { problems: [...problems, ...checker.end()], runIds: checker.runIds };
}

t.test('a good run, two runs in a row', async (t) => {
  const run = (id: string) => [ev('run_start', id), ev('text', id), ev('usage', id), ev('tool_call', id, { id: 'a' }), ev('tool_result', id, { id: 'a' }), ev('tool_call', id, { id: 'b' }), ev('warning', id), ev('tool_result', id, { id: 'b' }), ev('final', id), ev('run_end', id)];
  const { problems, runIds } = check([...run('r1'), ...run('r2')]);
  t.same(problems, []);
  t.same(runIds, ['r1', 'r2']);
});

t.test('each rule', async (t) => {
  t.match(check([ev('text')]).problems, [{ lineNo: 1, problem: /first event is text, expected run_start/ }, { lineNo: 1, problem: /no run_end/ }]);
  t.match(check([ev('run_start'), ev('run_end'), ev('run_end')]).problems, [{ lineNo: 3, problem: /second run_end/ }]);
  t.match(check([ev('run_start'), ev('run_end'), ev('text')]).problems, [{ lineNo: 3, problem: /text after run_end/ }]);
  t.match(check([ev('run_start'), ev('run_start'), ev('run_end')]).problems, [{ lineNo: 2, problem: /second run_start/ }]);
  t.match(check([ev('run_start'), ev('tool_call', 'r1', { id: 'x' }), ev('text'), ev('run_end')]).problems, [{ lineNo: 2, problem: /tool_call "x" has no tool_result before text/ }]);
  t.match(check([ev('run_start'), ev('tool_call', 'r1', { id: 'x' }), ev('run_end')]).problems, [{ lineNo: 2, problem: /before run_end/ }]);
  t.match(check([ev('run_start'), ev('tool_result', 'r1', { id: 'x' }), ev('run_end')]).problems, [{ lineNo: 2, problem: /answers no tool_call/ }]);
  t.match(check([ev('run_start'), ev('tool_call', 'r1', { id: 'x' }), ev('tool_call', 'r1', { id: 'x' }), ev('tool_result', 'r1', { id: 'x' }), ev('run_end')]).problems, [{ lineNo: 3, problem: /already waiting/ }]);
  t.match(check([ev('run_start'), ev('text', 'r2'), ev('run_end')]).problems, [{ lineNo: 2, problem: /first event is text/ }, { lineNo: 2, problem: /starts while run r1/ }, { lineNo: 3, problem: /runId r1 differs from the run going on \(r2\)/ }, { lineNo: 2, problem: /run r2: no run_end/ }]);
  t.match(check([ev('run_start'), ev('tool_call', 'r1', { id: 'x' })]).problems, [{ lineNo: 2, problem: /before the end of the log/ }, { lineNo: 2, problem: /no run_end/ }]);
});

t.test('values without type or runId are left to the schema', async (t) => {
  t.same(check([{ type: 'prompt' }, { hello: 1 }]).problems, []);
});
