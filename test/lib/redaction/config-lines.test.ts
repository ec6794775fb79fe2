import t from 'tap';
import { endsNetrcWord, NETRC_RULE } from '../../../lib/redaction/config-lines.js';
import { REDACTED } from '../../../lib/redaction/rule.js';

const value = 'Zq8w' + 'Lx3mNv5T';

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
