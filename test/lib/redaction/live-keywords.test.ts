import t from 'tap';
import { createLiveKeywords } from '../../../lib/redaction/live-keywords.js';

/** The characters before a piece, as scan asks for them. */
const after = (text: string) => (count: number) => text.slice(-count);

/** Where the latest live or open keyword starts once `pieces` have been scanned in turn (-1: none). */
function lastLive(...pieces: string[]): number {
  const keywords = createLiveKeywords();
  let at = 0;
  let before = '';
  for (const piece of pieces) {
    keywords.scan(piece, at, after(before));
    at += piece.length;
    before += piece;
  }
  return keywords.last;
}

t.test('a name keyword is dead once what follows its name is no operator', async (t) => {
  for (const prose of ['the token is valid here', 'the password is stored in the vault', 'a keyword here', 'bypass it', 'password reset link', 'the author of it', 'design notes']) {
    t.equal(lastLive(prose), -1, prose);
  }
});

t.test('a name keyword followed by an operator is live, from where it starts', async (t) => {
  t.equal(lastLive('set token = abc'), 4);
  t.equal(lastLive('{"apiKey": "x'), 5, 'quoted, the keyword inside the name');
  t.equal(lastLive('{\\"password\\":'), 3, 'JSON inside a JSON string');
  t.equal(lastLive('https://h/x?sig=abc'), 12, 'a query parameter');
  t.equal(lastLive('Cookie: a=b'), 0);
  t.equal(lastLive('Authorization:\tBearer x'), 15, 'the header: `auth` and `authorization` live, `bearer` too (a blank follows it)');
});

t.test('open while what follows could still be an operator: at the end of a piece', async (t) => {
  t.equal(lastLive('the token'), 4, 'the name may go on');
  t.equal(lastLive('the token  '), 4, 'blanks before an operator');
  t.equal(lastLive('the token', ' is', ' valid', ' here'), -1, 'decided by the next pieces');
  t.equal(lastLive('the token', ' is', ` Zq8wLx3m`, ' here'), 4, 'a random-looking value told in prose');
  t.equal(lastLive('the tok', 'en', '   ', '= x'), 4, 'a keyword split across pieces, then its operator three pieces on');
  t.equal(lastLive(`the token${' '.repeat(20)}= x`), 4, 'aligned columns: up to 32 blanks before the operator');
  t.equal(lastLive(`the token${' '.repeat(33)}= x`), -1, 'more than 32 blanks: no operator can follow');
});

t.test('other rules keyed by the same words', async (t) => {
  t.equal(lastLive('AWS Secret Access Key [None]: x'), 4, '`secret` then `access`: the AWS key name');
  t.equal(lastLive('aws_secret', '_acc'), 4, 'open while `access` may still come');
  t.equal(lastLive('AWS Secret Acc', 'ess Key [None]: x'), 4, 'the AWS key name split across pieces: live where it ends');
  t.equal(lastLive('my secret access plan'), 3, 'the AWS key name is live as soon as it is seen');
  t.equal(lastLive('my secret plan'), -1);
  t.equal(lastLive('curl --cookie sid=x'), 7, '`--cookie` and a blank');
  t.equal(lastLive('curl -', '-cookie sid=x'), 7, 'its dashes in the piece before');
  t.equal(lastLive('curl --', 'coo', 'kie sid=x'), 7, 'and the keyword split across pieces');
  t.equal(lastLive('a cookie jar'), -1);
  t.equal(lastLive('the bearer of news'), 4, '`bearer` and a blank: the token rule judges what follows');
  t.equal(lastLive('bearers'), -1);
});

t.test('every other keyword is live as soon as it is seen', async (t) => {
  t.equal(lastLive('see sk-'), 4);
  t.equal(lastLive('x https://h'), 7);
  t.equal(lastLive('a \\u0073'), 2, 'an escape');
  t.equal(lastLive('the token is', ' sk-'), 13);
});

t.test('a name run longer than any name is taken as live', async (t) => {
  t.equal(lastLive(`token${'x'.repeat(200)}`), 0);
  // not walked to the run's end: `password` × N in one piece walked to its end from every occurrence
  t.equal(lastLive(`token${'x'.repeat(300)} is here`), 0, 'whatever ends it further on, in the same piece');
  t.equal(lastLive(`token${'x'.repeat(100)} is here now`), -1, 'within the limit, the character after the run decides');
  t.equal(lastLive(`the token was ${'x'.repeat(200)}`), -1, 'but a long piece after a dead one changes nothing');
});

t.test('reset forgets what was seen', async (t) => {
  const keywords = createLiveKeywords();
  keywords.scan('set token = ', 0, after(''));
  keywords.reset();
  t.equal(keywords.last, -1);
  keywords.scan('tok', 12, after(''));
  keywords.reset();
  keywords.scan('en = x', 15, after(''));
  t.equal(keywords.last, -1, 'no keyword spans the reset');
});

t.test('retire: live keywords all before a release that closed them no longer count, escapes still do', async (t) => {
  const keywords = createLiveKeywords();
  keywords.scan('a token = abc ', 0, after(''));
  keywords.retire(2);
  t.equal(keywords.last, 2, 'not when one starts at or after the release');
  keywords.retire(14);
  t.equal(keywords.last, -1);
  keywords.scan('a \\x41 ', 14, after('a token = abc '));
  keywords.retire(22);
  t.equal(keywords.last, 16, 'an escape');
});

t.test("a command's sensitive --flag then a blank is live; the same name without its -- is prose", async (t) => {
  t.equal(lastLive('mysql --password x'), 8, 'the keyword inside --password');
  t.equal(lastLive('tool --api-key x'), 11, '`key` of --api-key');
  t.equal(lastLive('tool --api-', 'key x'), 11, 'the name split across pieces');
  t.equal(lastLive('the password x'), -1, 'no -- before the name');
  t.equal(lastLive('tool --token'), 7, 'open: its value may come next');
});

t.test('a short option that takes a password is live at the start of an argument only', async (t) => {
  t.equal(lastLive('mysql -pabc'), 6);
  t.equal(lastLive('curl --user a:b'), 6, '`-u` of --user');
  t.equal(lastLive('the end-point'), -1, 'inside a word');
  t.equal(lastLive('a well-paid job, a follow-up'), -1, 'inside words');
});

t.test("a .netrc password is live after machine, login or account and its word; elsewhere the word is prose", async (t) => {
  const line = 'machine api.example.com login alice password ';
  t.equal(lastLive(`${line}x`), line.indexOf('password'));
  t.equal(lastLive('machine h\n  login bob\n  pass', 'word', ' x'), 'machine h\n  login bob\n  '.length, 'split in the keyword and after it');
  t.equal(lastLive('the password is wrong here'), -1);
  t.equal(lastLive('machine h login u passport x'), -1);
});

t.test("a call's quoted name then a comma is live; a quoted name without one is prose", async (t) => {
  t.equal(lastLive("os.getenv('DB_PASSWORD', 'x')"), "os.getenv('DB_".length);
  t.equal(lastLive("os.getenv('DB_PASS", "WORD'", ", 'x')"), "os.getenv('DB_".length, 'decided pieces later');
  t.equal(lastLive("the 'password' field"), -1);
});

t.test("an XML element's `>` is live right after the name; a comparison's is not", async (t) => {
  t.equal(lastLive('<password>x'), 1);
  t.equal(lastLive('if (token > limit) stop'), -1);
});
