import t from 'tap';
import { COOKIE_RULE } from '../../../lib/redaction/cookies.js';
import { REDACTED } from '../../../lib/redaction/rule.js';
import { weighCalls } from '../../helpers/counting.js';

const run = (text: string): string => COOKIE_RULE.apply(text);
const sid = 's%3A' + 'Zq7Wm3Xk9P' + '.xY4';

t.test('Cookie: values of 8+ characters go, names and short values stay', async (t) => {
  t.equal(run(`Cookie: sid=${sid}; theme=dark`), `Cookie: sid=${REDACTED}; theme=dark`);
  t.equal(run(`Cookie: a=${sid}; b=${sid}`), `Cookie: a=${REDACTED}; b=${REDACTED}`);
  t.equal(run(`Cookie: ${sid}`), `Cookie: ${REDACTED}`, 'a value without a name');
  t.equal(run('Cookie: abcd1234'), `Cookie: ${REDACTED}`, 'exactly 8');
  t.equal(run('Cookie: a=abcd123'), 'Cookie: a=abcd123', '7 characters stay');
  t.equal(run(`cookie:sid=${sid}`), `cookie:sid=${REDACTED}`);
  t.equal(run(`curl -H "Cookie: sid=${sid}; a=b" https://h/x`), `curl -H "Cookie: sid=${REDACTED}; a=b" https://h/x`);
  t.equal(run(`setCookie: id=${sid}`), `setCookie: id=${REDACTED}`);
  t.equal(run(`curl --cookie 'sid=${sid}' https://h/x`), `curl --cookie 'sid=${REDACTED}' https://h/x`);
  t.equal(run(`{"Cookie": "sid=${sid}", "Accept": "*/*"}`), `{"Cookie": "sid=${REDACTED}", "Accept": "*/*"}`);
});

t.test('Set-Cookie: the value goes, the attributes stay', async (t) => {
  t.equal(
    run(`Set-Cookie: session=${sid}; Path=/; Domain=example.com; Max-Age=3600; HttpOnly; Secure; SameSite=Lax`),
    `Set-Cookie: session=${REDACTED}; Path=/; Domain=example.com; Max-Age=3600; HttpOnly; Secure; SameSite=Lax`,
  );
  t.equal(
    run(`set-cookie: id=${sid}; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Secure`),
    `set-cookie: id=${REDACTED}; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Secure`,
  );
});

t.test('several headers, multi-line text', async (t) => {
  t.equal(
    run(`HTTP/1.1 200 OK\nSet-Cookie: a=${sid}\nSet-Cookie: b=${sid}; Path=/\nContent-Type: text/html`),
    `HTTP/1.1 200 OK\nSet-Cookie: a=${REDACTED}\nSet-Cookie: b=${REDACTED}; Path=/\nContent-Type: text/html`,
  );
});

t.test('prose, references and other names stay', async (t) => {
  for (const text of [
    'the Cookie: header carries state', 'Cookie:', 'Set-Cookie: HttpOnly', 'cookies: 3', 'cookie jar',
    'Cookie: sid=$SESSION_ID', 'Cookie: sid=${SID}', 'fortune-cookie: yes=', 'X-Cookie-Policy: none',
    'Cookie: name=value', 'Set-Cookie: session=VALUE; Path=/', 'Cookie: required', 'Cookie: theme=dark; lang=en-US',
    'document.cookie = "a=b"', "cookie: 'get=cookies; and=attributes'", "{ 'set-cookie': 'undici=getSetCookies; Secure' }",
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('idempotent', async (t) => {
  const once = run(`Cookie: a=${sid}; b=${sid}\nSet-Cookie: c=${sid}; Path=/`);
  t.equal(run(once), once);
});

t.test('a long cookie value goes whole', async (t) => {
  t.equal(run(`Cookie: big=${'x9'.repeat(5000)}; n=1`), `Cookie: big=${REDACTED}; n=1`);
});

t.test('Set-Cookie is one header, not a Cookie header inside another', async (t) => {
  t.equal(run(`Set-Cookie: s=${sid}`), `Set-Cookie: s=${REDACTED}`);
});

t.test('a header inside the list of another is read too', async (t) => {
  // found by the idempotence property: a later rule redacting the first header exposed the second
  t.equal(run(`x Set-Cookie: Set-Cookie: ${sid}`), `x Set-Cookie: Set-Cookie: ${REDACTED}`);
});

/** The character tests (RegExp#test calls) the rule makes on `text`, per character of it. */
const testsPerCharacter = (text: string): number => weighCalls(RegExp.prototype, 'test', () => 1, () => COOKIE_RULE.apply(text)) / text.length;

t.test('headers inside the values of others are read in linear work, to the same verdicts', async (t) => {
  // each header read its list to the end again: `cookie:a=` × 2,700 took 1.4 s, `a=cookie:x=1; ` × 1,700 1.9 s
  for (const unit of ['cookie:a=', 'a=cookie:x=1; ', 'cookie:a=x${', 'cookie:a=[REDACTED]']) {
    const text = `Cookie: ${unit.repeat(24_000 / unit.length)}`;
    const perCharacter = testsPerCharacter(text);
    t.ok(perCharacter < 5, `${unit}: ${perCharacter.toFixed(1)} character tests per character`);
  }
  t.equal(run(`Cookie: a=${'cookie:a='.repeat(3)}; b=${sid}`), `Cookie: a=${REDACTED}; b=${REDACTED}`);
  t.equal(run(`Cookie: a=\${X}cookie:b=${sid}`), `Cookie: a=\${X}cookie:b=${REDACTED}`, 'a secret inside a value that is none');
});
