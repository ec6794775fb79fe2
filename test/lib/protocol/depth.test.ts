import t from 'tap';
import { isLineTooDeep, isTextTooDeep, isTooDeep, MAX_JSON_DEPTH, TOO_DEEP } from '../../../lib/protocol/depth.js';

// Built as text: JSON.stringify of such values would itself overflow the stack.
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

t.test('the limit is 256 levels, the top container counting as one', async (t) => {
  t.equal(MAX_JSON_DEPTH, 256);
  t.equal(TOO_DEEP, 'nested more than 256 levels deep');
  t.equal(isTooDeep(JSON.parse(nestedArrays(256))), false);
  t.equal(isTooDeep(JSON.parse(nestedArrays(257))), true);
  t.equal(isTooDeep({ a: [{ b: 1 }], c: 'x' }, 3), false);
  t.equal(isTooDeep({ a: [{ b: [] }] }, 3), true);
  t.equal(isTooDeep('[[[[', 1), false, 'a string is not a container');
  t.equal(isTooDeep(null, 0), false);
});

t.test('any depth can be asked about: the walk recurses no deeper than the limit', async (t) => {
  t.equal(isTooDeep(JSON.parse(nestedArrays(100_000))), true);
  t.equal(isTooDeep(JSON.parse(nestedObjects(100_000))), true);
  t.equal(isTooDeep(JSON.parse(nestedObjects(256))), false);
  t.equal(isTooDeep(JSON.parse(nestedObjects(100_000)), Infinity), false, 'no limit, nothing is too deep');
});

t.test('many containers side by side are not deep', async (t) => {
  const wide = `[${Array.from({ length: 300 }, () => '[]').join(',')}]`;
  t.notOk(isTooDeep(JSON.parse(wide)));
});

t.test('a line is asked about by its value, and one too short to nest deeper is not walked', async (t) => {
  const deep = nestedArrays(257);
  t.equal(isLineTooDeep(deep, JSON.parse(deep)), true);
  t.equal(isLineTooDeep(nestedArrays(256), JSON.parse(nestedArrays(256))), false);
  t.equal(isLineTooDeep('[]', [[[[]]]], 3), false, 'two characters cannot hold four levels: the value is not walked');
  t.equal(isLineTooDeep('[[[[]]]]', [[[[]]]], 3), true);
});

t.test('isTextTooDeep reads the depth from the text, before anything is parsed', async (t) => {
  t.equal(isTextTooDeep(nestedArrays(256)), false);
  t.equal(isTextTooDeep(nestedArrays(257)), true);
  t.equal(isTextTooDeep(nestedObjects(257)), true);
  t.equal(isTextTooDeep(`[${'[],'.repeat(1000)}[]]`), false, 'side by side is not deep');
  t.equal(isTextTooDeep(`{"a":"${'['.repeat(1000)}","b":[]}`), false, 'brackets in a string do not count');
  t.equal(isTextTooDeep(`{"a":"\\\\","b":"${'{'.repeat(1000)}"}`), false, 'an escaped backslash ends no string');
  t.equal(isTextTooDeep(`{"a":"\\"${'['.repeat(300)}"}`), false, 'an escaped quote ends no string');
  t.equal(isTextTooDeep(`["\\\\"${',['.repeat(300)}`), true, 'a quote after an escaped backslash does end it');
  // a model's 150 MB of `[` ran zero out of heap when parsed first; read as text, a few MB say it at once
  t.equal(isTextTooDeep('['.repeat(10_000_000)), true);
  t.equal(isTextTooDeep(nestedArrays(100_000)), isTooDeep(JSON.parse(nestedArrays(100_000))), 'the same answer as the parsed walk');
});
