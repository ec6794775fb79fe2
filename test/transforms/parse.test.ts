import t from 'tap';
import { parse } from '../../transforms/parse.js';
import { through, throughUntilError } from '../helpers/streams.js';

t.test('parses each line to a value and keeps its line number', async (t) => {
  t.same(await through(parse(), [{ line: '{"a":1}', lineNo: 1 }, { line: ' {"b":[2]} ', lineNo: 3 }]), [
    { value: { a: 1 }, lineNo: 1 },
    { value: { b: [2] }, lineNo: 3 },
  ]);
});

for (const [what, line] of [
  ['not JSON', '{"a":'],
  ['an array', '[1,2]'],
  ['a string', '"hello"'],
  ['a number', '42'],
  ['null', 'null'],
] as const) {
  t.test(`${what} is an error naming the line`, async (t) => {
    const { error } = await throughUntilError(parse(), [{ line: '{}', lineNo: 1 }, { line, lineNo: 7 }]);
    t.equal(error?.message, 'Invalid stream-json input at line 7: expected a JSON object.');
    t.equal((error as { code?: string }).code, 'usage_error');
  });
}

t.test('the label names what is being read', async (t) => {
  const { error } = await throughUntilError(parse({ label: 'script demo.jsonl' }), [{ line: 'nope', lineNo: 2 }]);
  t.equal(error?.message, 'Invalid script demo.jsonl at line 2: expected a JSON object.');
});
