import t from 'tap';
import { isHeaderSecret, isRedacted, isReference, isSecretLiteral, looksRandom } from '../../../lib/redaction/literals.js';

const bare = { quoted: false, envStyle: false };
const quoted = { quoted: true, envStyle: false };
const env = { quoted: false, envStyle: true };

t.test('references', async (t) => {
  for (const value of ['$TOKEN', '${TOKEN}', '"${X}"', '%API_KEY%', '{{ secrets.token }}', '<your-api-key>', 'pre${X}post']) {
    t.ok(isReference(value), value);
  }
  for (const value of ['hunter2hunter2', '50%off', 'abc$def']) t.notOk(isReference(value), value);
});

t.test('isRedacted and isHeaderSecret', async (t) => {
  t.ok(isRedacted('Bearer [REDACTED]'));
  t.notOk(isRedacted('REDACTED'));
  t.ok(isHeaderSecret('abc'));
  t.notOk(isHeaderSecret(''));
  t.notOk(isHeaderSecret('$TOKEN'));
  t.notOk(isHeaderSecret('[REDACTED]'));
});

t.test('secret literals', async (t) => {
  t.ok(isSecretLiteral('hunter2hunter2', bare));
  t.ok(isSecretLiteral('correct horse battery', quoted));
  t.ok(isSecretLiteral('userPassword', quoted), 'quoted words are literals');
  t.ok(isSecretLiteral('correcthorse', env), 'bare words are values in NAME=value lines');
  t.ok(isSecretLiteral('12345678', bare));
});

t.test('not secret literals', async (t) => {
  t.notOk(isSecretLiteral('short1', bare), 'under 8 characters');
  t.notOk(isSecretLiteral('[REDACTED]', bare));
  t.notOk(isSecretLiteral('${TOKEN}', quoted));
  t.notOk(isSecretLiteral('$GITHUB_TOKEN', env));
  for (const value of [
    'process.env.OPENAI_API_KEY', 'config.apiKey', 'this.password', 'loadCredential(profile);',
    'prompt(', 'os.environ[', '===secret1', 'undefined', 'Undefined', 'function', 'userPassword',
    'accessToken', 'SECRET_VALUE',
  ]) {
    t.notOk(isSecretLiteral(value, bare), value);
  }
  t.notOk(isSecretLiteral('undefined', env), 'keywords even in env style');
});

t.test('looksRandom', async (t) => {
  t.ok(looksRandom('abc123def'));
  t.ok(looksRandom('abcdefGHIJKLmnopq'));
  t.notOk(looksRandom('authentication'));
  t.notOk(looksRandom('abc123'), 'too short');
  t.notOk(looksRandom('AbcdefGhij'), 'mixed case but short');
});
