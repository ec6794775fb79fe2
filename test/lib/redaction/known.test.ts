import t from 'tap';
import { MIN_SECRET_LENGTH, base64Forms, knownForms, redactFragments, redactKnownForms } from '../../../lib/redaction/known.js';
import { REDACTED } from '../../../lib/redaction/rule.js';

const secret = 'sk-proj-Q7xL1spNxnyVmihA_2O76UMFxFkM_R5Kjp1vRt';

t.test('base64Forms: the secret is found inside base64 of any surrounding text, whatever its offset', async (t) => {
  const forms = base64Forms(secret);
  for (const prefix of ['', 'a', 'ab', 'KEY=']) {
    const encoded = Buffer.from(`${prefix}${secret}\n`).toString('base64');
    t.ok(forms.some((form) => encoded.includes(form)), `after ${JSON.stringify(prefix)}`);
    const url = Buffer.from(`${prefix}${secret}\n`).toString('base64url');
    t.ok(forms.some((form) => url.includes(form)), `base64url after ${JSON.stringify(prefix)}`);
  }
});

t.test('knownForms: each usable secret, URL-encoded and in base64, longest first; short ones ignored', async (t) => {
  const forms = knownForms([secret, 'short', 'a b/c=d&e']);
  t.ok(forms.includes(secret));
  t.ok(forms.includes(encodeURIComponent('a b/c=d&e')));
  t.notOk(forms.some((form) => form.includes('short')));
  t.same(forms, [...forms].sort((a, b) => b.length - a.length));
  t.ok(forms.every((form) => form.length >= MIN_SECRET_LENGTH));
});

t.test('redactKnownForms replaces every whole occurrence, in every form', async (t) => {
  const forms = knownForms([secret]);
  const b64 = Buffer.from(secret).toString('base64');
  t.equal(redactKnownForms(`a ${secret} b ${secret}`, forms), `a ${REDACTED} b ${REDACTED}`);
  t.notOk(redactKnownForms(`echo ${b64}`, forms).includes(b64.slice(4, 20)));
  t.equal(redactKnownForms('nothing known', forms), 'nothing known');
});

t.test('redactFragments: each half of a split credential goes; ordinary pieces of it stay', async (t) => {
  const first = secret.slice(0, 12);
  const second = secret.slice(12);
  t.equal(redactFragments(`${first}\n`, [secret]), `${REDACTED}\n`);
  t.equal(redactFragments(`x=${second}`, [secret]), `x=${REDACTED}`);
  t.equal(redactFragments('the sk-proj- prefix', [secret]), 'the sk-proj- prefix', 'a bare prefix is not random');
  t.equal(redactFragments(`${secret.slice(0, 20)} and ${secret.slice(10, 30)}`, [secret]), `${REDACTED} and ${REDACTED}`);
});
