import t from 'tap';
import { credentialScanners } from '../../../lib/redaction/credential-pieces.js';
import { mayContainKnownSecret, prepareSecrets } from '../../../lib/redaction/text.js';

const credential = 'Zq8nR2vT6yU1iO5pL9kJ3hG7fD4sA0mN';
const secrets = prepareSecrets([credential]);

/** Where the last piece or form head found starts, the pieces scanned in turn (-1: none). */
function lastFound(...pieces: string[]): number {
  const scanner = credentialScanners(secrets)!();
  let last = -1;
  let at = 0;
  for (const piece of pieces) {
    scanner.scan(piece, (start) => (last = Math.max(last, at + start)));
    at += piece.length;
  }
  return last;
}

t.test('found wherever redactText could redact the credential: whole, a piece of 8 or more, encoded', async (t) => {
  t.equal(lastFound(`key ${credential}`), 4 + credential.length - 8, 'whole: its last piece');
  t.equal(lastFound('see O5pL9kJ3 here'), 4, 'a piece of 8');
  t.equal(lastFound('see ', 'O5pL', '9kJ3'), 4, 'a piece split across texts');
  t.equal(lastFound(Buffer.from(credential).toString('base64')), 0, 'its base64 form, by its head');
  t.equal(lastFound('see O5pL9kJ here'), -1, 'not 7 characters of it');
  t.equal(lastFound('plain words, no key'), -1);
});

t.test('every text with a piece or form of it is found (against mayContainKnownSecret)', async (t) => {
  const texts = [credential, credential.slice(3, 20), encodeURIComponent(`${credential}/`), Buffer.from(`ab${credential}`).toString('base64url'), 'nothing here'];
  for (const text of texts) {
    const options = { secrets: [credential] };
    if (mayContainKnownSecret(text, options)) t.not(lastFound(text), -1, text);
  }
});

t.test('a credential that is not ASCII: no scanner (the stream redactor searches instead)', async (t) => {
  t.equal(credentialScanners(prepareSecrets(['pässwörd-Zq8nR2vT6'])), undefined);
});

t.test('long credentials, several at once: their pieces are found (an automaton past 16-bit rows)', async (t) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  // three 108-character keys of 64 symbols made 2,000+ states of 65 classes: more than 16-bit rows address
  const keys = [1, 2, 3].map((seed) => Array.from({ length: 108 }, (_, i) => alphabet[(i * 37 + seed * 11 + ((i * i) >> 2)) % 64]).join(''));
  const scanner = credentialScanners(prepareSecrets(keys))!();
  for (const key of keys) {
    let last = -1;
    scanner.scan(`the key is ${key.slice(50, 60)}.`, (start) => (last = Math.max(last, start)));
    t.equal(last, 11 + 2, `the last of its pieces in the text: ${key.slice(52, 60)}`);
  }
});
