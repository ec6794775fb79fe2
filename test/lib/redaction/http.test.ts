import t from 'tap';
import fc from '../../helpers/property.js';
import { HTTP_RULES } from '../../../lib/redaction/http.js';
import { buildPrefilter } from '../../../lib/redaction/prefilter.js';
import { REDACTED } from '../../../lib/redaction/rule.js';

const run = (text: string): string => HTTP_RULES.reduce((out, rule) => rule.apply(out), text);
const token = 'abc123' + 'DEF456' + 'ghi789';

t.test('Authorization header: only the token goes', async (t) => {
  t.equal(run(`Authorization: Bearer ${token}`), `Authorization: Bearer ${REDACTED}`);
  t.equal(run(`authorization: basic ${'dXNlcjpw' + 'YXNzd29yZA=='}`), `authorization: basic ${REDACTED}`);
  t.equal(run(`Authorization: token ${token}`), `Authorization: token ${REDACTED}`);
  t.equal(run(`Authorization: ${token}`), `Authorization: ${REDACTED}`, 'no scheme');
  t.equal(run(`Proxy-Authorization: Bearer ${token}`), `Proxy-Authorization: Bearer ${REDACTED}`);
  t.equal(run(`{"Authorization": "Bearer ${token}"}`), `{"Authorization": "Bearer ${REDACTED}"}`);
  t.equal(run('Authorization: Bearer x1'), `Authorization: Bearer ${REDACTED}`, 'short tokens too');
});

t.test('curl: the closing quote and the rest of the command survive', async (t) => {
  const cmd = `curl -sS -H "Authorization: Bearer ${token}" -H 'x-api-key: ${token}' https://api.example.com/v1/models | jq .`;
  t.equal(
    run(cmd),
    `curl -sS -H "Authorization: Bearer ${REDACTED}" -H 'x-api-key: ${REDACTED}' https://api.example.com/v1/models | jq .`,
  );
});

t.test('references and words next to Authorization are kept', async (t) => {
  for (const text of [
    'Authorization: Bearer $OPENAI_API_KEY', 'Authorization: Bearer ${TOKEN}', 'Authorization: Bearer',
    'Authorization: Bearer\nnext line', 'Authorization: please see the docs', 'x-api-key: $KEY',
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('API-key headers', async (t) => {
  t.equal(run('x-api-key: abc'), `x-api-key: ${REDACTED}`);
  t.equal(run('X-Goog-Api-Key: ' + token), `X-Goog-Api-Key: ${REDACTED}`);
  t.equal(run('x-auth-token=' + token + ';'), `x-auth-token=${REDACTED};`);
});

t.test('bare Bearer tokens, but only random-looking ones', async (t) => {
  t.equal(run(`use Bearer ${token} here`), `use Bearer ${REDACTED} here`);
  t.equal(run('bearer ' + 'abcdefGHIJKLmnopqr'), `bearer ${REDACTED}`);
  for (const text of ['the bearer of bad news', 'Bearer authentication is common', 'Bearer tokens expire']) {
    t.equal(run(text), text, text);
  }
});

t.test('passwords in URLs', async (t) => {
  t.equal(run('git clone https://user:hunter2@github.com/o/r.git'), `git clone https://user:${REDACTED}@github.com/o/r.git`);
  t.equal(run('postgres://app:s3cr3t!@db:5432/app'), `postgres://app:${REDACTED}@db:5432/app`);
  t.equal(run('"redis://:pw@localhost:6379"'), `"redis://:${REDACTED}@localhost:6379"`, 'empty user');
  for (const text of ['https://example.com:8080/path', 'https://user@host/x', 'mailto:a@b.c', 'https://u:$PASS@h']) {
    t.equal(run(text), text, text);
  }
});

t.test('sensitive query parameters', async (t) => {
  t.equal(
    run('GET https://h/x?token=abc&api_key=def&page=2#frag'),
    `GET https://h/x?token=${REDACTED}&api_key=${REDACTED}&page=2#frag`,
  );
  t.equal(
    run('"https://h/?access_token=a.b-c&key=k1&secret=s&password=p&signature=xyz&sig=z&q=keep"'),
    `"https://h/?access_token=${REDACTED}&key=${REDACTED}&secret=${REDACTED}&password=${REDACTED}&signature=${REDACTED}&sig=${REDACTED}&q=keep"`,
  );
  t.equal(run('https://h/?max_tokens=4096&id=7'), 'https://h/?max_tokens=4096&id=7');
  t.equal(run('/login?next=/cb?token=abc1'), `/login?next=/cb?token=${REDACTED}`, 'a query inside a query value');
  t.equal(run('?token=$TOKEN&key=${KEY}'), '?token=$TOKEN&key=${KEY}', 'references stay');
  // the rule's regex runs only on text with a `?` or an `&`: each alone, first or last, is enough
  t.equal(run('&sig=9f8e7d6c5b4a'), `&sig=${REDACTED}`, 'an `&` at the start, no `?`');
  t.equal(run('form body: user=a&token=Zx81kQ0pL2mN'), `form body: user=a&token=${REDACTED}`, 'an `&` only');
  t.equal(run('see /cb?token=Zx81kQ0pL2mN'), `see /cb?token=${REDACTED}`, 'a `?` only, the secret ending the text');
});

t.test('a value longer than the regex bound is still redacted whole', async (t) => {
  const long = 'a1'.repeat(3000);
  t.equal(run(`Authorization: Bearer ${long} next`), `Authorization: Bearer ${REDACTED} next`);
  t.equal(run(`?token=${long}&x=1`), `?token=${REDACTED}&x=1`);
  t.equal(run(`Bearer ${long}.`), `Bearer ${REDACTED}`);
});

t.test('idempotent', async (t) => {
  const once = run(`curl -H "Authorization: Bearer ${token}" "https://u:p@h/?token=t&x=1" Bearer ${token}`);
  t.equal(run(once), once);
});

t.test('a quoted header name before an unquoted value is code', async (t) => {
  for (const text of [
    "return buildHeaders([{ 'api-key': this.apiKey }]);", "...(isProvider ? {} : { 'api-key': apiKey }),",
    "{ 'Authorization': authHeader }", "{ 'x-api-key': config.key! }",
  ]) {
    t.equal(run(text), text, text);
  }
  t.equal(run(`{ 'x-api-key': '${token}' }`), `{ 'x-api-key': '${REDACTED}' }`, 'a quoted value is a literal');
  t.equal(run(`{ 'x-api-key': ${token} }`), `{ 'x-api-key': ${REDACTED} }`, 'a literal-looking one too');
});

t.test('placeholders stay', async (t) => {
  for (const text of [
    'Authorization: Bearer YOUR_TOKEN', 'x-api-key: <your-key>', 'x-api-key: xxxx', 'https://user:PASSWORD@host/',
    'postgres://user:password@localhost/db', 'https://h/?token=TOKEN&sig=VALUE',
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('a query value ends at a closing parenthesis', async (t) => {
  t.equal(
    run(`[![cov](https://cov.example.com/badge.svg?token=${token})](https://cov.example.com/r)`),
    `[![cov](https://cov.example.com/badge.svg?token=${REDACTED})](https://cov.example.com/r)`,
  );
});

t.test('Authorization header, tried only where the prefilter found its name: the same as the scan of the whole', async (t) => {
  const authorization = HTTP_RULES.find((rule) => rule.name === 'authorization-header')!;
  const prefilter = buildPrefilter([authorization]);
  const piece = fc.constantFrom(
    ...['Authorization', 'authorization', 'AUTHORIZATION', 'Proxy-', 'X', 'author', 'ization', ':', '=', ' ', '\t', '"', "'", 'Bearer '],
    ...['basic ', token, 'x1', '\n', ';', ',', '[REDACTED]', '\u0131', '\u212A', 'é'],
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
      const text = pieces.join('');
      const { starts } = prefilter.select(text);
      return authorization.applyAt!(text, starts[0]!) === authorization.apply(text);
    }),
    { numRuns: 5000 },
  );
  t.equal(authorization.applyAt!(`Authorization: Bearer ${token}`, []), `Authorization: Bearer ${token}`, 'only the starts it is told are tried');
});

t.test('a token as the user part of a URL, with or without a password', async (t) => {
  const token = 'a1B2' + 'c3D4' + 'e5F6g7H8i9J0k1L2m3N4';
  t.equal(run(`git clone https://${token}@github.com/acme/app.git`), `git clone https://${REDACTED}@github.com/acme/app.git`);
  t.equal(run(`https://${token}:x-oauth-basic@github.com/acme/app`), `https://${REDACTED}:${REDACTED}@github.com/acme/app`);
  for (const text of ['ssh://git@github.com/acme/app.git', 'https://deploy-user@example.com/x', 'mailto://someone.with.a.long.name@example.com']) {
    t.equal(run(text), text, `a user name stays: ${text}`);
  }
});
