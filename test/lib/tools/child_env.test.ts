import t from 'tap';
import { childEnvironment, looksLikeCredential, nameMatches, type EnvPolicy } from '../../../lib/tools/child_env.js';

const parent = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/me',
  PWD: '/work',
  OLDPWD: '/',
  LANG: 'C.UTF-8',
  LC_ALL: 'C',
  CI: 'true',
  NODE_ENV: 'test',
  OPENAI_API_KEY: 'sk-proj-abcdefghijklmnop1234',
  GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  NPM_TOKEN: 'npm_abcdefghijklmnopqrstuvwxyz0123456789',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  DB_PASSWORD: 'hunter2hunter2',
  MYSQL_PWD: 'hunter3hunter3',
  DB_PASS: 'hunter4hunter4',
  SSH_AUTH_SOCK: '/run/user/1000/ssh-agent.sock',
  GOOGLE_APPLICATION_CREDENTIALS: '/home/me/key.json',
  CI_JOB_JWT: 'eyJhbGciOiJIUzI1NiJ9.e30.abc',
  SENTRY_DSN: 'https://abc@sentry.io/1',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/x',
  SESSION_COOKIE: 'abc',
  DATABASE_URL: 'postgres://app:s3cretpassw0rd@db:5432/app',
  INNOCENT: 'the-run-knows-this-secret-value',
  EMPTY: '',
};
const policy = (overrides: Partial<EnvPolicy>): EnvPolicy => ({ inherit: 'all', include: [], exclude: [], pass: [], set: {}, ...overrides });

t.test('by default: every ordinary variable, none that looks like a credential by name or by value', async (t) => {
  const env = childEnvironment(parent, undefined, ['the-run-knows-this-secret-value']);
  t.same(Object.keys(env).sort(), ['CI', 'EMPTY', 'HOME', 'LANG', 'LC_ALL', 'NODE_ENV', 'OLDPWD', 'PATH', 'PWD']);
  t.equal(env.PWD, '/work', 'PWD and OLDPWD are directories, not passwords');
  t.notOk('INNOCENT' in childEnvironment(parent, undefined, ['the-run-knows-this-secret-value']), 'a credential the run knows, under any name');
  t.ok('INNOCENT' in childEnvironment(parent), 'a value nobody said is a secret');
  t.notOk('DATABASE_URL' in env, 'a password in a URL, which the redactor would hide');
});

t.test('names that look like credentials', async (t) => {
  for (const name of ['OPENAI_API_KEY', 'my_secret', 'GH_TOKEN', 'PGPASSWORD', 'DB_PASS', 'MYSQL_PWD', 'AZURE_CLIENT_SECRET', 'NPM_CONFIG__AUTH', 'GPG_PASSPHRASE', 'PRIVATE_DATA', 'CI_JOB_JWT', 'SENTRY_DSN']) t.ok(looksLikeCredential(name), name);
  for (const name of ['PATH', 'PWD', 'OLDPWD', 'HOME', 'EDITOR', 'TERM', 'COMPASS_DIR', 'LANG']) t.notOk(looksLikeCredential(name), name);
});

t.test('inherit core keeps only the ordinary set; none keeps nothing', async (t) => {
  t.same(Object.keys(childEnvironment(parent, policy({ inherit: 'core' }))).sort(), ['CI', 'HOME', 'LANG', 'LC_ALL', 'PATH', 'PWD']);
  t.same(childEnvironment(parent, policy({ inherit: 'none' })), {});
});

t.test('include passes a credential a build needs; exclude wins over it; --env-pass over exclude; set last', async (t) => {
  const env = childEnvironment(parent, policy({ inherit: 'none', include: ['NPM_TOKEN', 'AWS_*', 'HOME'], exclude: ['aws_secret*'], pass: ['DB_*'], set: { HOME: '/sandbox-home', EXTRA: '1' } }));
  t.same(env, { NPM_TOKEN: parent.NPM_TOKEN, DB_PASSWORD: parent.DB_PASSWORD, DB_PASS: parent.DB_PASS, HOME: '/sandbox-home', EXTRA: '1' });
  t.notOk('CI' in childEnvironment(parent, policy({ exclude: ['C?'] })));
});

t.test('globs: * and ? without regard to case, linear in the name', async (t) => {
  t.ok(nameMatches('AWS_*', 'aws_region'));
  t.ok(nameMatches('*_TOKEN', 'NPM_TOKEN'));
  t.ok(nameMatches('A?C', 'ABC'));
  t.notOk(nameMatches('A?C', 'ABBC'));
  t.ok(nameMatches('*', ''));
  t.notOk(nameMatches('X*', 'AX'));
  const started = performance.now();
  t.notOk(nameMatches('*a*a*a*a*a*a*a*a*b', 'a'.repeat(20_000)));
  t.ok(performance.now() - started < 2000, 'a pattern that backtracks in a RegExp is quick');
});
