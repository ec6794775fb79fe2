import t from 'tap';
import { createEarliest } from '../../../lib/logs/earliest.js';

t.test('the earliest line of what is open, as lines move forward and things close', async (t) => {
  const lines = new Map<string, number>();
  const earliest = createEarliest<string>((name) => lines.get(name));
  t.equal(earliest.line(), Infinity, 'nothing open');
  for (const [name, line] of [['a', 5], ['b', 2], ['c', 9]] as const) {
    lines.set(name, line);
    earliest.add(name, line);
  }
  t.equal(earliest.line(), 2);
  lines.set('b', 7);
  t.equal(earliest.line(), 5, 'b moved past a');
  lines.delete('a');
  t.equal(earliest.line(), 7, 'a is gone');
  lines.delete('b');
  lines.delete('c');
  t.equal(earliest.line(), Infinity);
});

t.test('many open at once: always the least', async (t) => {
  const lines = new Map<number, number>();
  const earliest = createEarliest<number>((id) => lines.get(id));
  const order = Array.from({ length: 200 }, (_, index) => (index * 7919) % 200);
  for (const id of order) {
    lines.set(id, id + 1);
    earliest.add(id, id + 1);
  }
  for (let id = 0; id < 200; id += 1) {
    t.equal(earliest.line(), id + 1);
    lines.delete(id);
  }
  t.equal(earliest.line(), Infinity);
});
