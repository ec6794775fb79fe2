import t from 'tap';
import { BASIC_AUTH_RULE, isEncodedCredential } from '../../../lib/redaction/basic-auth.js';
import { REDACTED } from '../../../lib/redaction/rule.js';

const run = (text: string): string => BASIC_AUTH_RULE.apply(text);
const encoded = Buffer.from('deploy:' + 'Zq8w' + 'Lx3mNv5T').toString('base64');

t.test('user:password in base64 under auth: docker, npm', async (t) => {
  t.equal(run(`{"auths": {"https://index.docker.io/v1/": {"auth": "${encoded}"}}}`), `{"auths": {"https://index.docker.io/v1/": {"auth": "${REDACTED}"}}}`);
  t.equal(run(`//registry.npmjs.org/:_auth=${encoded}`), `//registry.npmjs.org/:_auth=${REDACTED}`);
  t.equal(run(`_auth = "${encoded}"`), `_auth = "${REDACTED}"`);
});

t.test('auth that holds no encoded credential stays', async (t) => {
  for (const text of ['auth: true', 'auth: "required"', '"auth": "passport"', 'oauth=abcdefghijklmnop', `"author": "${encoded}"`, '"auth": "SGVsbG8gd29ybGQh"']) {
    t.equal(run(text), text, text);
  }
});

t.test('isEncodedCredential: base64 of user:password', async (t) => {
  t.ok(isEncodedCredential(encoded));
  t.notOk(isEncodedCredential(Buffer.from('Hello world!').toString('base64')), 'no colon');
  t.notOk(isEncodedCredential(Buffer.from([0, 1, 58, 200, 255]).toString('base64')), 'not printable');
});
