import t from 'tap';
import { endsNetrcWord, NETRC_RULE, PHP_DEFINE_RULE } from '../../../lib/redaction/config-lines.js';
import { REDACTED } from '../../../lib/redaction/rule.js';

const value = 'Zq8w' + 'Lx3mNv5T';

t.test("PHP's define() of a sensitive constant: its value goes, quotes and call stay", async (t) => {
  const run = (text: string): string => PHP_DEFINE_RULE.apply(text);
  t.equal(run(`define( 'DB_PASSWORD', '${value}' );`), `define( 'DB_PASSWORD', '${REDACTED}' );`);
  t.equal(run(`define('AUTH_KEY',         '${value}#!k');`), `define('AUTH_KEY',         '${REDACTED}');`, "wp-config.php's aligned values");
  t.equal(run(`DEFINE("API_TOKEN", "${value}\\"x");`), `DEFINE("API_TOKEN", "${REDACTED}");`, 'any case, an escaped quote inside');
});

t.test('define() that gives no secret stays', async (t) => {
  for (const text of [
    `define('DB_HOST', '${value}');`,
    "define('DB_PASSWORD', getenv('DB_PASSWORD'));",
    "define('DB_PASSWORD', '');",
    "define('AUTH_KEY', 'short');",
    `undefine('DB_PASSWORD', '${value}');`,
    `define(DB_PASSWORD, '${value}');`,
  ]) {
    t.equal(run2(text), text, text);
  }
  function run2(text: string): string {
    return PHP_DEFINE_RULE.apply(text);
  }
});

t.test('a .netrc password: after machine, login or account and its word, on one line or several', async (t) => {
  const run = (text: string): string => NETRC_RULE.apply(text);
  t.equal(run(`machine api.example.com login alice password ${value}`), `machine api.example.com login alice password ${REDACTED}`);
  t.equal(run(`machine example.com\n  login bob\n  password ${value}\n`), `machine example.com\n  login bob\n  password ${REDACTED}\n`);
  t.equal(run(`machine ci.example.com password ${value} login carol`), `machine ci.example.com password ${REDACTED} login carol`);
});

t.test('a password word elsewhere stays', async (t) => {
  const run = (text: string): string => NETRC_RULE.apply(text);
  for (const text of [
    `the password ${value} is wrong`,
    'machine x login y password $NETRC_PASSWORD',
    `machinelogin y password ${value}`,
    `machine x login y passwords ${value}`,
    'On the login page password reminders are shown.',
    'machine learning password estimators',
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('endsNetrcWord: what the stream redactor asks of the text before a held `password`', async (t) => {
  t.ok(endsNetrcWord('machine host login user '));
  t.ok(endsNetrcWord('login user\n  '));
  t.notOk(endsNetrcWord('the '));
  t.notOk(endsNetrcWord('login '), 'the word is missing');
});
