import fc from '../../helpers/property.js';
import t from 'tap';
import { ID_PATTERN, RUN_ID_PATTERN, SESSION_ID_PATTERN, isId, newRunId, newSessionId, validCallId } from '../../../lib/protocol/ids.js';

const at = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678)); // 2024-01-02 03:04:05.678 UTC

t.test('a run id is run_<UTC yyyymmddHHMMSS>_<6 lowercase base36>', async (t) => {
  const id = newRunId(at);
  t.match(id, /^run_20240102030405_[0-9a-z]{6}$/);
  t.match(id, RUN_ID_PATTERN);
  t.notMatch(id, SESSION_ID_PATTERN);
});

t.test('a session id is zero_<UTC yyyymmddHHMMSS>_<6 lowercase base36>', async (t) => {
  const id = newSessionId(at);
  t.match(id, /^zero_20240102030405_[0-9a-z]{6}$/);
  t.match(id, SESSION_ID_PATTERN);
  t.notMatch(id, RUN_ID_PATTERN);
});

t.test('the timestamp is UTC whatever the offset of the given date', async (t) => {
  // 23:30 at UTC-5 is 04:30 the next day in UTC.
  const evening = new Date('2024-12-31T23:30:59-05:00');
  t.match(newRunId(evening), /^run_20250101043059_/);
  t.match(newSessionId(evening), /^zero_20250101043059_/);
});

t.test('milliseconds are dropped, not rounded', async (t) => {
  t.match(newRunId(new Date('2026-11-30T05:33:26.999Z')), /^run_20261130053326_/);
});

t.test('without a date, the timestamp is now', async (t) => {
  const stamp = (d: Date) => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const before = stamp(new Date());
  const runStamp = newRunId().slice(4, 18);
  const sessionStamp = newSessionId().slice(5, 19);
  const after = stamp(new Date());
  for (const s of [runStamp, sessionStamp]) {
    t.ok(s >= before && s <= after, `${s} is between ${before} and ${after}`);
  }
});

t.test('the random suffix differs between ids made in the same second', async (t) => {
  const ids = new Set(Array.from({ length: 500 }, () => newRunId(at)));
  t.ok(ids.size > 490, `${ids.size} distinct of 500`);
  const suffixChars = new Set([...ids].flatMap((id) => [...id.slice(-6)]));
  t.ok(suffixChars.size > 30, 'the suffix draws from the whole base36 alphabet');
  for (const c of suffixChars) t.match(c, /^[0-9a-z]$/);
});

t.test('run and session ids are ids', async (t) => {
  t.ok(isId(newRunId()));
  t.ok(isId(newSessionId()));
});

t.test('isId accepts an alphanumeric start followed by letters, digits and . _ : -', async (t) => {
  for (const id of ['a', 'Z', '0', 'call_1', 'toolu_01AbC', 'A.b:c-d_e', 'x--..::__', '9'.repeat(128)]) t.ok(isId(id), id);
});

t.test('isId rejects everything else', async (t) => {
  for (const id of ['', '-a', '_a', '.a', ':a', 'a b', 'a/b', 'a\n', '\na', 'é', 'a+b', 'call#1', ' a']) t.notOk(isId(id), JSON.stringify(id));
});

t.test('isId allows at most 128 characters', async (t) => {
  t.ok(isId('a'.repeat(128)));
  t.notOk(isId('a'.repeat(129)));
  t.ok(ID_PATTERN.test('a'.repeat(129)), 'the pattern alone has no length limit');
});

t.test('property: isId holds exactly for well-formed strings of 1 to 128 characters', async (t) => {
  const first = fc.constantFrom(...'abcXYZ019');
  const rest = fc.string({ unit: fc.constantFrom(...'aZ9._:-'), maxLength: 200 });
  fc.assert(fc.property(first, rest, (head, tail) => isId(head + tail) === head.length + tail.length <= 128));
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), (s) => {
      const wellFormed = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(s);
      return isId(s) === wellFormed;
    }),
  );
  t.pass('property held');
});

t.test('validCallId: an id stays; anything else becomes one, the same for the same id and place', async (t) => {
  t.equal(validCallId('call_abc:1.x-y', 0), 'call_abc:1.x-y');
  for (const odd of ['', 'a b', '_x', '-lead', 'é', 'a/../b', 'a\nb', 'x'.repeat(129)]) {
    const id = validCallId(odd, 2);
    t.ok(isId(id), JSON.stringify(odd));
    t.equal(validCallId(odd, 2), id, 'the same again');
    t.not(validCallId(odd, 3), id, 'another place, another id');
  }
});
