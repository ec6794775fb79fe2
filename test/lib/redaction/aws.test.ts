import t from 'tap';
import { AWS_SECRET_RULE } from '../../../lib/redaction/aws.js';
import { REDACTED } from '../../../lib/redaction/rule.js';
import { redactText } from '../../../lib/redaction/text.js';

const run = (text: string): string => AWS_SECRET_RULE.apply(text);
// 40 base64 characters, built from pieces (AWS's documented example shape, not a real key)
const key = 'wJalrXUtnFEMI/K7MDENG' + '/bPxRfiCYZXAMPLEKEY';

t.test('a 40-character secret next to an AWS key name', async (t) => {
  for (const [text, expected] of [
    [`aws_secret_access_key = ${key}`, `aws_secret_access_key = ${REDACTED}`],
    [`AWS_SECRET_ACCESS_KEY=${key}\nAWS_REGION=eu-west-1`, `AWS_SECRET_ACCESS_KEY=${REDACTED}\nAWS_REGION=eu-west-1`],
    [`{"SecretAccessKey": "${key}", "AccessKeyId": "x"}`, `{"SecretAccessKey": "${REDACTED}", "AccessKeyId": "x"}`],
    [`secretAccessKey: '${key}',`, `secretAccessKey: '${REDACTED}',`],
    [`AWS Secret Access Key [None]: ${key}`, `AWS Secret Access Key [None]: ${REDACTED}`],
    [`| aws-secret-access-key | ${key} |`, `| aws-secret-access-key | ${REDACTED} |`],
  ]) {
    t.equal(run(text), expected, text);
  }
});

t.test('through redactText, which runs the rule only on text naming `secret` and `access`: every separator the name allows', async (t) => {
  for (const name of ['SecretAccessKey', 'secret access key', 'SECRET_ACCESS_KEY', 'secret.access.key', 'aws-secret-access-key']) {
    t.equal(redactText(`${name} ${key}`), `${name} ${REDACTED}`, name);
  }
  t.equal(redactText(`secret, then access: ${key}`), `secret, then access: ${key}`, 'apart, they are no key name');
});

t.test('no secret: not 40 characters, too far, another line, or no name', async (t) => {
  for (const text of [
    `aws_secret_access_key = ${key}x`,
    `aws_secret_access_key = ${key.slice(1)}`,
    `aws_secret_access_key = see the docs, the value goes on the next line\n${key}`,
    `aws_secret_access_key is read from the environment by the SDK, then ${key}`,
    `access_key = ${key}`,
    'aws_secret_access_key = $AWS_SECRET_ACCESS_KEY',
    'Set the AWS secret access key in ~/.aws/credentials before running the deploy script.',
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('idempotent: a second pass does not reach past the marker', async (t) => {
  const once = run(`SecretAccessKey: ${key} ${key}`);
  t.equal(once, `SecretAccessKey: ${REDACTED} ${key}`);
  t.equal(run(once), once);
});

t.test('long adversarial input finishes', async (t) => {
  const input = ('secret access key ' + 'a'.repeat(39) + ' ').repeat(5000);
  t.equal(run(input), input);
});

t.test('a secret key right after its access key id, with no name: the console CSV, a pasted pair', async (t) => {
  const id = 'AKIA' + 'Q7XL1SPNXNYV2B8C';
  const secret = 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYzQ8nR2vT6y';
  for (const text of [`Access key ID,Secret access key\n${id},${secret}\n`, `${id} ${secret}`, `${id}\t${secret}`]) {
    const out = redactText(text);
    t.notOk(out.includes(secret.slice(0, 12)), JSON.stringify(text));
    t.notOk(out.includes(id), 'the id too');
  }
  t.equal(redactText(`${id} and then forty letters of nothing in particular`), '[REDACTED] and then forty letters of nothing in particular');
});
