import t from 'tap';
import { DEFAULT_BOUND, HOLD_BOUNDS } from '../../../lib/redaction/hold-bounds.js';
import { TEXT_RULES } from '../../../lib/redaction/text.js';

t.test('every rule has its own hold-back bound (the README lists them)', async (t) => {
  t.same(TEXT_RULES.map((rule) => rule.name).filter((name) => HOLD_BOUNDS[name] === undefined), []);
  t.ok(DEFAULT_BOUND.lead > 0, 'a rule without one would still be held, conservatively');
});

t.test("an assignment's bound: open while its operator, a type annotation or its value is still arriving", async (t) => {
  const { open } = HOLD_BOUNDS['sensitive-assignment']!;
  for (const text of ['token": "abc', 'token:= abc', 'token"] = \'ab', 'token: string = "abc', 'token: str', 'token: Option<Str', 'token: str | No', 'token="a\\"b']) {
    t.ok(open(text, 0), text);
  }
  for (const text of ['token: the value is', 'token= abc def', 'token: string = "abc";', 'token: "abc"']) t.notOk(open(text, 0), text);
});

t.test("a .netrc password's bound: open only after a .netrc word", async (t) => {
  const { open } = HOLD_BOUNDS['netrc-password']!;
  const line = 'machine h login u ';
  t.ok(open(`${line}passw`, line.length));
  t.ok(open(`${line}password hunt`, line.length));
  t.notOk(open('the password hunt', 4));
  t.notOk(open(`${line}password hunter2 ok`, line.length));
});
