import t from 'tap';
import { isTooDeep, mayBeTooDeep, MAX_JSON_DEPTH, TOO_DEEP } from '../../../lib/protocol/depth.js';

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

t.test('mayBeTooDeep: a quick bound on the text, never a miss', async (t) => {
  t.notOk(mayBeTooDeep('{"a":[1,2,{"b":3}]}'), 'a few brackets');
  t.notOk(mayBeTooDeep('['.repeat(256) + ']'.repeat(256)), 'exactly the limit');
  t.ok(mayBeTooDeep('['.repeat(257) + ']'.repeat(257)));
  const wide = `[${Array.from({ length: 300 }, () => '[]').join(',')}]`;
  t.ok(mayBeTooDeep(wide), 'many brackets side by side: the value must be walked');
  t.notOk(isTooDeep(JSON.parse(wide)), 'and the walk says it is not deep');
  for (const depth of [1, 100, 256, 257, 5000]) {
    const text = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    t.ok(!isTooDeep(JSON.parse(text)) || mayBeTooDeep(text), `depth ${depth}: whenever the value is too deep, the text says it may be`);
  }
});
