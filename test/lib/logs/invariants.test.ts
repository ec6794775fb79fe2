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

t.test('one schemaVersion per run: a line of the other version is named with the run\'s first line', async (t) => {
  const v = (schemaVersion: number, type: string, runId = 'r1') => ({ schemaVersion, ...ev(type, runId) });
  t.same(check([v(2, 'run_start'), v(2, 'reasoning'), v(2, 'run_end'), v(1, 'run_start', 'r2'), v(1, 'run_end', 'r2')]).problems, [], 'runs of either version, one after the other');
  t.same(check([v(1, 'run_start'), v(2, 'text'), v(1, 'final'), v(2, 'run_end')]).problems, [
    { lineNo: 2, problem: 'schemaVersion: Expected 1, received 2 (run r1 is version 1 from line 1)' },
    { lineNo: 4, problem: 'schemaVersion: Expected 1, received 2 (run r1 is version 1 from line 1)' },
  ]);
  t.same(check([v(3, 'run_start'), v(2, 'text'), v(2, 'run_end')]).problems, [], 'a version zero does not speak is the schema\'s to report; the next line sets the run\'s');
});

t.test('run_end.exitCode agrees with its status', async (t) => {
  const ending = (status: string, exitCode: number) => check([ev('run_start'), ev('run_end', 'r1', { status, exitCode })]).problems;
  for (const [status, code] of [['success', 0], ['error', 1], ['error', 2], ['error', 143], ['error', 141], ['incomplete', 4], ['interrupted', 130], ['interrupted', 141]] as const) {
    t.same(ending(status, code), [], `${status} ${code}`);
  }
  t.same(ending('success', 3), [{ lineNo: 2, problem: 'run r1: run_end exitCode 3 does not agree with status success (expected 0)' }]);
  t.same(ending('error', 0), [{ lineNo: 2, problem: 'run r1: run_end exitCode 0 does not agree with status error (expected not 0)' }]);
  t.same(ending('incomplete', 0), [{ lineNo: 2, problem: 'run r1: run_end exitCode 0 does not agree with status incomplete (expected 4)' }]);
  t.same(ending('interrupted', 143), [{ lineNo: 2, problem: 'run r1: run_end exitCode 143 does not agree with status interrupted (expected 130, or 141 when stdout is gone)' }]);
  t.same(ending('toString', 9), [], 'an unknown status is the schema\'s to report');
});

t.test('version 2 events where §3.3 puts them: checkpoint and permission_request while their call waits', async (t) => {
  const { problems } = check([
    ev('run_start'),
    ev('reasoning'),
    ev('text'),
    ev('usage'),
    ev('tool_call', 'r1', { id: 'a' }),
    ev('checkpoint'),
    ev('tool_result', 'r1', { id: 'a' }),
    ev('reasoning'),
    ev('tool_call', 'r1', { id: 'b' }),
    ev('permission_request', 'r1', { id: 'b' }),
    ev('permission_decision', 'r1', { id: 'b' }),
    ev('tool_result', 'r1', { id: 'b' }),
    ev('final'),
    ev('run_end', 'r1', { status: 'success', exitCode: 0 }),
  ]);
  t.same(problems, []);
  t.match(check([ev('run_start'), ev('tool_call', 'r1', { id: 'a' }), ev('reasoning'), ev('tool_result', 'r1', { id: 'a' }), ev('run_end')]).problems, [{ lineNo: 2, problem: /tool_call "a" has no tool_result before reasoning/ }], 'reasoning starts the next turn');
});

t.test('a failure before the start: error, then run_end, and nothing else (§3.3 rule 7)', async (t) => {
  const failure = [ev('error'), ev('run_end', 'r1', { status: 'error', exitCode: 2 })];
  t.same(check(failure).problems, []);
  t.same(check([...failure, ev('run_start', 'r2'), ev('run_end', 'r2')]).problems, [], 'then another run');
  t.same(check([ev('error'), ev('text'), ev('run_end')]).problems, [{ lineNo: 2, problem: 'run r1: text in a failure before the start (error, then run_end, and nothing else)' }]);
  t.same(check([ev('error'), ev('run_start'), ev('run_end')]).problems, [{ lineNo: 2, problem: 'run r1: run_start in a failure before the start (error, then run_end, and nothing else)' }]);
  t.match(check([ev('error')]).problems, [{ lineNo: 1, problem: /no run_end/ }]);
});

t.test('a stored prompt comes between runs, never inside one', async (t) => {
  const checker = createInvariantChecker();
  t.same(checker.prompt('prompt', 1), [], 'before the first run');
  checker.event(ev('run_start'), 2);
  t.same(checker.prompt('message', 3), [{ lineNo: 3, problem: 'run r1: message inside the run (a session file\'s prompt comes between runs)' }]);
  checker.event(ev('run_end', 'r1', { status: 'success', exitCode: 0 }), 4);
  t.same(checker.prompt('prompt', 5), [], 'after its run_end');
  t.same(checker.runIds, ['r1'], 'a prompt is no run');
});

t.test('openFrom: the earliest line an open run or call may still get a problem at', async (t) => {
  const checker = createInvariantChecker();
  t.equal(checker.openFrom(), Infinity, 'nothing open');
  checker.event(ev('run_start'), 1);
  checker.event(ev('text'), 2);
  t.equal(checker.openFrom(), 2, 'a run that has not ended: its run_end would be missing at its last line');
  checker.event(ev('tool_call', 'r1', { id: 'a' }), 3);
  checker.event(ev('warning'), 4);
  t.equal(checker.openFrom(), 3, 'a call waiting for its result');
  checker.event(ev('tool_result', 'r1', { id: 'a' }), 5);
  t.equal(checker.openFrom(), 5);
  checker.event(ev('run_start', 'r2'), 6);
  checker.event(ev('run_end', 'r2', { status: 'success', exitCode: 0 }), 7);
  t.equal(checker.openFrom(), 5, 'r1 never ended: it holds its last line');
  checker.event(ev('run_end', 'r1', { status: 'success', exitCode: 0 }), 8);
  t.equal(checker.openFrom(), Infinity);
});

t.test('openFrom with many calls waiting: the earliest still waiting, whatever order they are answered in', async (t) => {
  const checker = createInvariantChecker();
  checker.event(ev('run_start'), 1);
  const calls = 5000;
  for (let call = 0; call < calls; call++) checker.event(ev('tool_call', 'r1', { id: `c${call}` }), 2 + call);
  t.equal(checker.openFrom(), 2);
  // answered in order, then one out of order: each answer moves the earliest to the next call still waiting
  let line = 2 + calls;
  for (let call = 0; call < 3000; call++) checker.event(ev('tool_result', 'r1', { id: `c${call}` }), line++);
  t.equal(checker.openFrom(), 2 + 3000, 'past the 3,000 answered');
  checker.event(ev('tool_result', 'r1', { id: 'c3001' }), line++);
  t.equal(checker.openFrom(), 2 + 3000, 'a later call answered first changes nothing');
  checker.event(ev('tool_result', 'r1', { id: 'c3000' }), line++);
  t.equal(checker.openFrom(), 2 + 3002, 'the answered one after it is skipped too');
  const sentAgain = line++;
  checker.event(ev('tool_call', 'r1', { id: 'c3002' }), sentAgain);
  t.equal(checker.openFrom(), 2 + 3003, 'a call sent again waits from its new line');
  for (let call = 3003; call < calls; call++) checker.event(ev('tool_result', 'r1', { id: `c${call}` }), line++);
  t.equal(checker.openFrom(), sentAgain, 'the call sent again is the last still waiting');
  checker.event(ev('tool_result', 'r1', { id: 'c3002' }), line++);
  t.equal(checker.openFrom(), line - 1, 'none waiting: the run, at its last line');
});
