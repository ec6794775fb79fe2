import { isSensitiveKey, redactText } from '../redaction/index.js';

/**
 * The environment of every process zero starts for the model (bash, stdio MCP servers): decided here and
 * nowhere else. A child gets ordinary variables, never the run's credentials: a command the model writes can
 * print, encode or commit whatever it is given.
 */

export const ENV_INHERITS = ['all', 'core', 'none'] as const;
export type EnvInherit = (typeof ENV_INHERITS)[number];

/** What a child inherits (the config files' `shellEnvironment` and --env-pass); see docs/exec.md "The environment of commands". */
export type EnvPolicy = {
  /** `all`: every variable that does not look like a credential; `core`: only CORE_VARIABLES; `none`: nothing. */
  inherit: EnvInherit;
  /** Names or globs passed even when they look like credentials (`NPM_TOKEN`): the config file's `include`. */
  include: string[];
  /** Names or globs never passed; wins over `include`. */
  exclude: string[];
  /** --env-pass: like `include`, and it wins over `exclude` (a flag beats a file). */
  pass: string[];
  /** Set as given, last. */
  set: Record<string, string>;
};

export const DEFAULT_ENV_POLICY: EnvPolicy = { inherit: 'all', include: [], exclude: [], pass: [], set: {} };

/** The ordinary variables `inherit: core` keeps (globs allowed). */
export const CORE_VARIABLES = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_*', 'TERM', 'COLORTERM', 'NO_COLOR', 'TZ', 'TMPDIR', 'PWD', 'EDITOR', 'VISUAL', 'PAGER', 'CI'];

/**
 * Name parts that mark a credential (compared in upper case): the list, and the cloud and CI ones that
 * carry no such word (GitLab's `CI_JOB_JWT`, a Sentry DSN, a Slack webhook address).
 */
const CREDENTIAL_PARTS = ['KEY', 'SECRET', 'TOKEN', 'PASSWORD', 'PASSWD', 'PASSPHRASE', 'CREDENTIAL', 'AUTH', 'COOKIE', 'PRIVATE', 'JWT', 'DSN', 'WEBHOOK'];
/** Endings that mark one only at the end (`DB_PASS`, `MYSQL_PWD`); `PWD` and `OLDPWD` are directories. */
const CREDENTIAL_ENDINGS = ['PASS', 'PWD'];
const DIRECTORY_NAMES = new Set(['PWD', 'OLDPWD']);

/** Whether a variable's name says it holds a credential (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `PGPASSWORD`). */
export function looksLikeCredential(name: string): boolean {
  const upper = name.toUpperCase();
  if (DIRECTORY_NAMES.has(upper)) return false;
  return CREDENTIAL_PARTS.some((part) => upper.includes(part)) || CREDENTIAL_ENDINGS.some((ending) => upper.endsWith(ending)) || isSensitiveKey(name);
}

/** Whether `value` is, or holds, a secret: one the run knows, or one the redactor recognises (a URL with a password in it, a provider key). */
function holdsSecret(value: string, secrets: readonly string[]): boolean {
  return redactText(value, { secrets }) !== value;
}

/**
 * `*` (any run) and `?` (one character), compared without regard to case, in time linear in the name for each
 * star: the greedy match that backs up only to the last star.
 */
export function nameMatches(pattern: string, name: string): boolean {
  const p = pattern.toUpperCase();
  const n = name.toUpperCase();
  let pi = 0;
  let ni = 0;
  let star = -1;
  let resume = 0;
  while (ni < n.length) {
    if (pi < p.length && (p[pi] === '?' || p[pi] === n[ni])) {
      pi++;
      ni++;
    } else if (pi < p.length && p[pi] === '*') {
      star = pi++;
      resume = ni;
    } else if (star >= 0) {
      pi = star + 1;
      ni = ++resume;
    } else return false;
  }
  while (p[pi] === '*') pi++;
  return pi === p.length;
}

const matchesAny = (patterns: readonly string[], name: string) => patterns.some((pattern) => nameMatches(pattern, name));

/**
 * The environment a child gets from `parent`, in this order: the `inherit` starting set, less every variable
 * whose name looks like a credential or whose value holds a secret (`secrets`: the credentials the run knows);
 * plus `include`; less `exclude`; plus --env-pass; then `set`.
 */
export function childEnvironment(parent: NodeJS.ProcessEnv, policy: EnvPolicy = DEFAULT_ENV_POLICY, secrets: readonly string[] = []): Record<string, string> {
  const env: Record<string, string> = {};
  const from = (keep: (name: string, value: string) => boolean) => {
    for (const [name, value] of Object.entries(parent)) if (value !== undefined && keep(name, value)) env[name] = value;
  };
  const ordinary = (name: string, value: string) => !looksLikeCredential(name) && !holdsSecret(value, secrets);
  if (policy.inherit === 'all') from(ordinary);
  if (policy.inherit === 'core') from((name, value) => matchesAny(CORE_VARIABLES, name) && ordinary(name, value));
  from((name) => matchesAny(policy.include, name));
  for (const name of Object.keys(env)) if (matchesAny(policy.exclude, name)) delete env[name];
  from((name) => matchesAny(policy.pass, name));
  return Object.assign(env, policy.set);
}
