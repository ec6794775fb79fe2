import fc from '../../helpers/property.js';
import t from 'tap';
import { UsageError } from '../../../lib/errors.js';
import { parseLine } from '../../../lib/protocol/parse.js';

t.test('a JSON object becomes the value, with its line number', async (t) => {
  t.same(parseLine({ line: '{"schemaVersion":1,"type":"prompt","content":"hi"}', lineNo: 3 }), {
    value: { schemaVersion: 1, type: 'prompt', content: 'hi' },
    lineNo: 3,
  });
});

t.test('whitespace around the object and nested values are fine', async (t) => {
  t.same(parseLine({ line: ' \t{ "a": [1, {"b": null}], "c": "ü" } ', lineNo: 1 }), { value: { a: [1, { b: null }], c: 'ü' }, lineNo: 1 });
  t.same(parseLine({ line: '{}', lineNo: 2 }), { value: {}, lineNo: 2 });
});

t.test('the value is not checked beyond being an object', async (t) => {
  t.same(parseLine({ line: '{"anything":"goes"}', lineNo: 1 }).value, { anything: 'goes' });
});

for (const [what, line] of [
  ['not JSON', '{"a":'],
  ['trailing garbage', '{"a":1} x'],
  ['two objects on one line', '{"a":1}{"b":2}'],
  ['single quotes', "{'a':1}"],
  ['an array', '[{"a":1}]'],
  ['a string', '"{}"'],
  ['a number', '42'],
  ['true', 'true'],
  ['null', 'null'],
  ['a leading BOM', '\uFEFF{"a":1}'],
] as const) {
  t.test(`${what} is a usage error naming the line`, async (t) => {
    t.throws(() => parseLine({ line, lineNo: 7 }), {
      message: 'Invalid stream-json input at line 7: expected a JSON object.',
      code: 'usage_error',
      exitCode: 2,
      recoverable: true,
    });
    t.throws(() => parseLine({ line, lineNo: 7 }), UsageError);
  });
}

t.test('the label names what is being read', async (t) => {
  t.throws(() => parseLine({ line: 'nope', lineNo: 2 }, 'script demo.jsonl'), {
    message: 'Invalid script demo.jsonl at line 2: expected a JSON object.',
  });
});

t.test('property: any JSON object parses back to itself; any other JSON value is rejected', async (t) => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.nat(), (object, lineNo) => {
      const line = JSON.stringify(object);
      const parsed = parseLine({ line, lineNo });
      return parsed.lineNo === lineNo && JSON.stringify(parsed.value) === line;
    }),
  );
  fc.assert(
    fc.property(
      fc.jsonValue().filter((value) => value === null || typeof value !== 'object' || Array.isArray(value)),
      (value) => {
        try {
          parseLine({ line: JSON.stringify(value), lineNo: 1 });
          return false;
        } catch (error) {
          return error instanceof UsageError;
        }
      },
    ),
  );
  t.pass('property held');
});

// Every later stage walks or serializes the value recursively: a few thousand levels overflowed the stack (a crash).
t.test('an object nested more than 256 levels deep is a usage error naming the line', async (t) => {
  const deep = `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`;
  t.throws(() => parseLine({ line: deep, lineNo: 7 }), new UsageError('Invalid stream-json input at line 7: nested more than 256 levels deep.'));
  t.same(parseLine({ line: deep, lineNo: 7 }, 'script', { maxDepth: Infinity }).lineNo, 7, 'unless the caller lifts the limit');
  t.ok(parseLine({ line: `{"a":${'['.repeat(255)}${']'.repeat(255)}}`, lineNo: 1 }), '256 levels are fine');
});
