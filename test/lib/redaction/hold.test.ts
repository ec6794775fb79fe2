import t from 'tap';
import fc from '../../helpers/property.js';
import { openMatchStart, pemStart } from '../../../lib/redaction/hold.js';

t.test('pemStart: the earliest unterminated private-key header', async (t) => {
  const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----';
  t.equal(pemStart(`a ${block} b`), `a ${block} b`.length, 'a complete block holds nothing');
  t.equal(pemStart('a -----BEGIN EC '), 2, 'a header still arriving');
  t.equal(pemStart('a -----BEGIN CERTIFICATE-----\nMII'), 'a -----BEGIN CERTIFICATE-----\nMII'.length, 'not a private key');
  t.equal(pemStart('x -----BEGIN PRIVATE KEY-----\nAB -----BEGIN PRIVATE KEY-----\nCD'), 2, 'the first of two open headers');
});


t.test('openMatchStart within caps: a token longer than its rule\'s bound holds nothing', async (t) => {
  const open = `a sk-proj-${'Q7xL1'.repeat(100)}`;
  const long = `a sk-proj-${'Q7xL1'.repeat(300)}`;
  t.equal(openMatchStart(open, true), 2, 'within its 1 KiB: from its prefix');
  t.equal(openMatchStart(long), 2, 'past it, without caps: still from its prefix');
  t.equal(openMatchStart(long, true), long.length, 'past it, within caps: nothing');
});

t.test('openMatchStart of a beginning of a text is that of the beginning alone (property)', async (t) => {
  const parts = ['x ', ' ', 'sk-ant-', 'sk-', 'abc123', 'token', '=', ': "', 'password', 'Bearer ', 'https://u:', '@h', '\n', 'ghp_', 'AKIA', '_live_', 'sk', 'secret access'];
  await fc.assert(
    fc.property(fc.array(fc.constantFrom(...parts), { minLength: 1, maxLength: 12 }), fc.nat(), fc.boolean(), (pieces, at, withinCaps) => {
      const text = pieces.join('');
      const end = at % (text.length + 1);
      // the whole text first: its keywords are kept for its beginnings, which must not see a keyword that crosses `end`
      openMatchStart(text, withinCaps);
      return openMatchStart(text, withinCaps, end) === openMatchStart(text.slice(0, end), withinCaps);
    }),
    { seed: 29, numRuns: 3000 },
  );
  t.equal(openMatchStart('x sk-ant-abc', false, 'x sk-an'.length), 2, 'sk-ant- cut at its end: sk- is open');
});
