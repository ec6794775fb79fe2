import t from 'tap';
import { isJsonObject } from '../../../lib/protocol/json-object.js';

t.test('isJsonObject: objects only, not null or arrays', async (t) => {
  t.same([{}, { a: 1 }, [], null, 'x', 1, undefined].map(isJsonObject), [true, true, false, false, false, false, false]);
});
