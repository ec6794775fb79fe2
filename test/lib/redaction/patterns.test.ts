import t from 'tap';
import { PATTERN_RULES } from '../../../lib/redaction/patterns.js';
import { REDACTED } from '../../../lib/redaction/rule.js';
import { redactText } from '../../../lib/redaction/text.js';

// Fake keys are built from pieces so no real-looking secret sits in the repo as one literal.
const run = (text: string): string => PATTERN_RULES.reduce((out, rule) => rule.apply(out), text);
const alnum = (n: number): string => 'aB3dE6gH9k'.repeat(Math.ceil(n / 10)).slice(0, n);

const examples: Record<string, string> = {
  openai: 'sk-' + alnum(48),
  openaiProject: 'sk-' + 'proj-' + alnum(40) + '_' + alnum(20),
  openaiServiceAccount: 'sk-' + 'svcacct-' + alnum(40),
  openaiAdmin: 'sk-' + 'admin-' + alnum(40),
  anthropic: 'sk-' + 'ant-' + 'api03-' + alnum(80) + '-' + alnum(6),
  githubPersonal: 'ghp' + '_' + alnum(36),
  githubOauth: 'gho' + '_' + alnum(36),
  githubUser: 'ghu' + '_' + alnum(36),
  githubServer: 'ghs' + '_' + alnum(36),
  githubRefresh: 'ghr' + '_' + alnum(36),
  githubFineGrained: 'github' + '_pat_' + alnum(22) + '_' + alnum(59),
  gitlab: 'glpat' + '-' + alnum(20),
  gitlabPipelineTrigger: 'glptt' + '-' + alnum(40),
  gitlabDeploy: 'gldt' + '-' + alnum(20),
  gitlabRunner: 'glrt' + '-' + alnum(20),
  gitlabCiJob: 'glcbt' + '-' + '64_' + alnum(20),
  gitlabScim: 'glsoat' + '-' + alnum(20),
  gitlabFeatureFlag: 'glffct' + '-' + alnum(20),
  gitlabOauthApp: 'gloas' + '-' + alnum(64),
  gitlabIncomingMail: 'glimt' + '-' + alnum(25),
  gitlabAgent: 'glagent' + '-' + alnum(50),
  gitlabWorkspace: 'glwt' + '-' + alnum(20),
  gitlabFeed: 'glft' + '-' + alnum(20),
  slackBot: 'xox' + 'b-' + '1234567890-' + '1234567890123-' + alnum(24),
  slackUser: 'xox' + 'p-' + '1234567890-' + alnum(24),
  slackApp: 'xapp' + '-1-' + 'A0123BCDE-' + '1234567890-' + alnum(24),
  awsAccessKeyId: 'AKIA' + 'IOSFODNN7EXAMPLE',
  awsTemporary: 'ASIA' + 'ABCDEFGH12345678',
  google: 'AIza' + alnum(33) + '-_',
  stripeLive: 'sk' + '_live_' + alnum(24),
  stripeRestricted: 'rk' + '_live_' + alnum(24),
  stripeTest: 'sk' + '_test_' + alnum(24),
  npm: 'npm' + '_' + alnum(36),
  huggingFace: 'hf' + '_' + alnum(34),
  groq: 'gsk' + '_' + alnum(52),
  sendgrid: 'SG' + '.' + alnum(20) + '-_' + '.' + alnum(41) + '_-',
  jwt: 'eyJ' + 'hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' + '.' + 'eyJ' + 'zdWIiOiIxMjM0NTY3ODkwIn0' + '.' + alnum(43),
};

t.test('each provider key is redacted whole, surroundings kept', async (t) => {
  for (const [name, secret] of Object.entries(examples)) {
    t.equal(run(secret), REDACTED, `${name} alone`);
    t.equal(run(`key: (${secret}), next`), `key: (${REDACTED}), next`, `${name} in text`);
    t.equal(run(`A=${secret}\nB`), `A=${REDACTED}\nB`, `${name} assigned`);
  }
});

t.test('ordinary text is untouched', async (t) => {
  for (const text of [
    'task-list', 'risk-level', 'desk-lamp-with-a-very-long-hyphenated-name', 'tokenizer',
    'run_20261130053326_ab12cd', 'call_1', 'sk-short', 'ghp_short', 'AKIA1234', 'AKIA' + 'X'.repeat(17),
    'eyJ-not-a-jwt', 'hf_model_loader_config', 'npm_config_registry', 'xoxb-', 'askAIzaQuestion',
    'gsk_short', 'msg.' + alnum(22) + '.' + alnum(43), 'SG.short.key', 'glpat-short', 'global-settings-provider-x',
    '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----', '-----BEGIN CERTIFICATE-----',
  ]) {
    t.equal(run(text), text, text);
  }
});

t.test('a key glued to a preceding word is not a key prefix', async (t) => {
  const body = alnum(30);
  t.equal(run('mask-' + body), 'mask-' + body);
  t.equal(run('my-sk-' + body), 'my-' + REDACTED, 'a dash before the prefix is a boundary');
});

t.test('a glued run longer than the regex bound goes whole', async (t) => {
  t.equal(run('glpat-' + alnum(2000) + ' x'), `${REDACTED} x`);
  t.equal(run('sk-' + alnum(1500) + 'ghp_' + alnum(36)), REDACTED);
});

t.test('PEM private-key blocks go whole, header through footer', async (t) => {
  const body = [alnum(64), alnum(64), alnum(20) + '=='].join('\n');
  for (const kind of ['', 'RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ']) {
    const block = `-----BEGIN ${kind}PRIVATE KEY-----\n${body}\n-----END ${kind}PRIVATE KEY-----`;
    t.equal(run(`before\n${block}\nafter`), `before\n${REDACTED}\nafter`, kind || 'PKCS#8');
  }
  const pgp = `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${body}\n-----END PGP PRIVATE KEY BLOCK-----`;
  t.equal(run(pgp), REDACTED, 'PGP');
  const escaped = `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${alnum(64)}\\n-----END PRIVATE KEY-----\\n"}`;
  t.equal(run(escaped), `{"private_key": "${REDACTED}\\n"}`, 'JSON-escaped newlines');
});

t.test('a PEM block that never ends loses its body too', async (t) => {
  const truncated = `-----BEGIN RSA PRIVATE KEY-----\n${alnum(64)}\n${alnum(64)}`;
  t.equal(run(truncated), REDACTED);
  t.equal(run(`${truncated}\n(truncated)`), `${REDACTED}(truncated)`);
});

t.test('two keys in one text, and redaction is idempotent', async (t) => {
  const text = `a ${examples.openai} b ${examples.githubPersonal} c`;
  const once = run(text);
  t.equal(once, `a ${REDACTED} b ${REDACTED} c`);
  t.equal(run(once), once);
});

// No timing assertion here (speed lives in bench/): catastrophic backtracking would hang past tap's timeout.
t.test('adversarial input finishes, and is redacted idempotently', async (t) => {
  const inputs = [
    'sk-'.repeat(20000), 'eyJ'.repeat(20000) + '.', ('eyJ' + 'a'.repeat(20) + '.').repeat(5000),
    '-----BEGIN PRIVATE KEY-----'.repeat(2000), 'AKIA'.repeat(20000), 'a'.repeat(100000),
    '-----BEGIN PRIVATE KEY-----\n' + 'a'.repeat(100000),
  ];
  for (const input of inputs) {
    const once = run(input);
    t.equal(run(once), once, `${input.slice(0, 12)}… (${input.length} chars)`);
  }
});

// `"a\nsk-…"` in JSON text (a file cat'ed, a log) and `%0Ask-…` in a URL-encoded value printed the whole key:
// the `n` of the escape counted as a letter glued to the key.
t.test('a key right after an escape (\\n, \\t, \\u003c, \\x22, %0A) is still a key', async (t) => {
  const openai = 'sk-proj-' + 'Q7xL1spNxnyVmihA_2O76UMFxFkM_R5Kjp1vRt';
  const github = 'ghp_' + 'Ab3dEf6hIj9lMn2pQr5tUv8xYz1BcD4fGh7J';
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.' + 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
  for (const escape of ['\\n', '\\r\\n', '\\t', '\\u003c', '\\x22', '%0A', '%22']) {
    for (const secret of [openai, github, jwt, 'AKIA' + 'QWERTYUIOP123456']) {
      t.equal(redactText(`{"keys":"a${escape}${secret}"}`), `{"keys":"a${escape}${REDACTED}"}`, `${escape} ${secret.slice(0, 4)}`);
    }
  }
  t.equal(redactText('task-list-of-many-things-here-today'), 'task-list-of-many-things-here-today', 'a word before still guards');
});
