import t from 'tap';
import {
  isHeaderSecret, isPlaceholder, isRedacted, isReference, isSecretLiteral, looksLikeCode, looksRandom,
} from '../../../lib/redaction/literals.js';

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
  t.ok(isSecretLiteral('userPasswd2', quoted), 'quoted words are literals');
  t.ok(isSecretLiteral('correcthorse', quoted));
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
  t.notOk(isSecretLiteral('opts?.workSecret', bare), 'optional chaining');
  t.notOk(isSecretLiteral('config.apiKey!', bare), 'non-null assertion');
  for (const value of ['refresh_token', 'x-api-key', 'Authorization', 'userPassword']) {
    t.notOk(isSecretLiteral(value, quoted), `a field name: ${value}`);
  }
  for (const value of ['https://platform.example.com/docs', 'postgres://db:5432/app']) {
    t.notOk(isSecretLiteral(value, quoted), `a URL: ${value}`);
  }
  for (const value of ['YOUR_API_KEY', 'your-token-here', 'ghp_exampletoken', 'xxxxxxxxxx', '**********']) {
    t.notOk(isSecretLiteral(value, env), `a placeholder: ${value}`);
  }
});

t.test('looksRandom', async (t) => {
  t.ok(looksRandom('abc123def'));
  t.ok(looksRandom('abcdefGHIJKLmnopq'));
  t.notOk(looksRandom('authentication'));
  t.notOk(looksRandom('abc123'), 'too short');
  t.notOk(looksRandom('AbcdefGhij'), 'mixed case but short');
});

t.test('placeholders', async (t) => {
  for (const value of ['VALUE', 'TOKEN', 'YOUR_API_KEY', 'xxx', 'XXXXXXXX', '****', '...', '…', 'password', 'Token',
    'your-key', 'your_token_here', 'sk-example', 'AKIAEXAMPLE', '<changeme>', 'placeholder-value']) {
    t.ok(isPlaceholder(value), value);
  }
  for (const value of ['hunter2', 'Zq7Wm3Xk9P', 'ABC123', 'pw', 'A', 'correcthorse', 'yourself1']) t.notOk(isPlaceholder(value), value);
  // a placeholder's word in a value that looks random: a password someone chose
  for (const value of ['myexamplepassword99', 'changeme2024', 'ExampleCorpLoginPass', 'your-token-8f3a9c']) t.notOk(isPlaceholder(value), value);
  t.notOk(isHeaderSecret('TOKEN'));
  t.notOk(isHeaderSecret('xxxx'));
});

t.test('looksLikeCode', async (t) => {
  t.ok(looksLikeCode('apiKey', false));
  t.notOk(looksLikeCode('apiKey', true), 'a bare word is a value in env style');
  t.ok(looksLikeCode('this.apiKey', true));
  t.notOk(looksLikeCode('abc123', false));
});
