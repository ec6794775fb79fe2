/**
 * Each text rule's hold bound, by rule name: where, around one of its keywords, its redacted range can start,
 * whether the text from that keyword to the end can still begin a match, and for a match that goes on while a
 * run does, where its hold stops (hold.ts asks them; docs/redaction.md lists the longest hold each gives).
 */

import { isSensitiveKey, isSensitiveQueryParam } from './keys.js';
import { TOKEN_START } from './patterns.js';
import { endsNetrcWord, NETRC_REACH } from './config-lines.js';

export type HoldBound = {
  /** How far before its keyword the rule's redacted range can start: the cut goes there. */
  readonly lead: number;
  /** Whether the match around the keyword at `at` could still grow past the end of `text`. */
  open(text: string, at: number): boolean;
  /** For a match that goes on while a run of characters does (redacted whole however long): where its hold stops. */
  readonly cap?: RunCap;
  /**
   * For a self-identifying token, whose redacted range starts with its prefix at a token start: the prefixes
   * (`keywords`: the rule's keywords). A text ending in the beginning of one (`s`, `gh`, `ey`) holds that back.
   */
  readonly prefixes?: 'keywords' | readonly string[];
};

/**
 * A match that stays open while a run of `run` characters goes on is held for at most `longest` characters
 * from its start: past that it is one secret-shaped blob, whatever follows (the stream redactor then writes
 * the marker and swallows the run as it comes, holding nothing: see stream.ts).
 */
export type RunCap = {
  readonly longest: number;
  /** Sticky: the run of characters that continue the blob, from `lastIndex`. */
  readonly run: RegExp;
  /**
   * A list of values, each redacted on its own (a cookie list): past the cap, its values are secrets still, however
   * far from their header, so the rest of the run is one blob even when what is held ends in a name or a short value.
   */
  readonly list?: true;
};

const KIB = 1024;
const capOf = (longest: number, char: string): RunCap => ({ longest, run: new RegExp(`${char}*`, 'y') });


/** `pattern` (sticky, ending in `$`) matches all the text from `at`: the text to the end can begin a match. */
function reachesEnd(pattern: RegExp, text: string, at: number): boolean {
  pattern.lastIndex = Math.max(0, at);
  return pattern.test(text);
}

const reaching = (pattern: RegExp, lead = 0, cap?: RunCap): HoldBound => ({ lead, open: (text, at) => reachesEnd(pattern, text, at - lead), cap });

/**
 * Self-identifying tokens: a prefix, then a run of token characters redacted
 * whole however long. Open while that run reaches the end (every token
 * alphabet, prefixes and JWT dots included, is inside this class), up to
 * `longest` characters (the rule's own bound: 1 KiB, a JWT 32 KiB).
 */
const TOKEN_CHAR = '[A-Za-z0-9_.-]';
const TOKEN_RUN = new RegExp(`${TOKEN_START}${TOKEN_CHAR}*$`, 'y');
const token = (lead = 0, longest = KIB, prefixes: HoldBound['prefixes'] = 'keywords'): HoldBound => ({
  ...reaching(TOKEN_RUN, lead, capOf(longest, TOKEN_CHAR)),
  prefixes,
});

export const isNameCode = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 46 || code === 45;

/** The names a run can hold: the whole run and each part after a `-` (`x-api-key` → `api-key`, `key`). */
const namesIn = (run: string): string[] => [run, ...[...run.matchAll(/-/g)].map((dash) => run.slice(dash.index + 1))];

/**
 * `NAME<operator>value` rules: open while the name is still being written, or
 * when a sensitive name is followed by `rest` (its operator and a value that
 * reaches the end). Names are at most 128 characters: the scans stop there.
 */
function named(sensitive: (name: string) => boolean, rest: RegExp, cap: RunCap): HoldBound {
  return {
    lead: 0,
    cap,
    open(text, at) {
      let end = at;
      while (end < text.length && end - at < 160 && isNameCode(text.charCodeAt(end))) end++;
      if (end === text.length) return true;
      if (!reachesEnd(rest, text, end)) return false;
      let start = at;
      while (start > 0 && at - start < 160 && isNameCode(text.charCodeAt(start - 1))) start--;
      return namesIn(text.slice(start, end)).some(sensitive);
    },
  };
}

/** An assignment's value still arriving: quoted and still open (up to 4 KiB, one line), or bare and reaching the end. */
const VALUE_OPEN = String.raw`\\?"(?:[^"\\\r\n]|\\[^\r\n]){0,4096}\\?$|'[^'\r\n]{0,4096}$|${'`'}[^${'`'}\r\n]{0,4096}$|["'${'`'}]?[^\s"'${'`'},;&)}\]<>]*$`;
/** A name/value pair's `"value":` field, or its beginning, then its value still arriving (`{"name": "DB_PASSWORD", "value": "…`). */
const PAIR_FIELD_OPEN = String.raw`(?:["']?(?:v|va|val|valu|value)?$|["']value["']?$|["']value["'][ \t]{0,4}(?:$|:[ \t]{0,4}(?:$|${VALUE_OPEN})))`;
/** A type annotation, or its beginning: `string`, `Option<String>`, `str | None` (a superset, as a hold may be). */
const TYPE_OPEN_PART = String.raw`[A-Za-z_$][\w$.]{0,63}(?:<[^<>\r\n]{0,64}>?|\[[^[\]\r\n]{0,64}\]?)?(?:\[\]?)?`;
const TYPE_OPEN = String.raw`${TYPE_OPEN_PART}(?:[ \t]{0,2}\|[ \t]{0,2}(?:${TYPE_OPEN_PART})?){0,3}`;
/**
 * After a name: quote, subscript bracket, operator (or a call's comma, a default's `||` or `??`, an XML element's `>`),
 * then a value still arriving, or a single-quoted one after blanks (SQL's `PASSWORD '…'`), or one after prose's `is`; or `:`, a type
 * annotation and `=` (`apiKey: string = "…"`) with the value still arriving.
 */
const ASSIGNMENT_REST = new RegExp(
  String.raw`\\?["']?\]?[ \t]{0,32}(?:$|(?::=|=>|:|=|,|\|\||\?\?|>)[ \t]{0,32}(?:$|${VALUE_OPEN})|[|?]$|'[^'\r\n]{0,4096}$|i$|is[ \t]{0,32}(?:$|${VALUE_OPEN}|\S{0,257}$)|:[ \t]{0,32}${TYPE_OPEN}[ \t]{0,32}(?:$|=[ \t]{0,32}(?:$|${VALUE_OPEN}))|,[ \t]{0,32}${PAIR_FIELD_OPEN}|\r?\n[ \t]{0,32}(?:v|va|val|valu|value)?$|\r?\n[ \t]{0,32}value:[ \t]{0,32}(?:$|${VALUE_OPEN})|(?:v|va|val|valu|value)$|value=[ \t]{0,32}(?:$|${VALUE_OPEN}))`,
  'y',
);
const isWordOrDash = (code: number): boolean => isNameCode(code) && code !== 46;

/**
 * A command-line rule's bound: only an option at an argument's start (`--password`, ` -p`; never the `-p` of
 * `sk-proj-`) can be open. `named`: the keyword is in the flag's name, which must begin with `--`; else the keyword
 * is the option itself (`-u` is also the second half of `--user`).
 */
function argumentBound(bound: HoldBound, named: boolean): HoldBound {
  return {
    ...bound,
    open(text, at) {
      let start = at;
      if (named) while (start > 0 && at - start < 160 && isWordOrDash(text.charCodeAt(start - 1))) start--;
      else if (text.charCodeAt(at - 1) === 45) start = at - 1;
      if (named ? !text.startsWith('--', start) || text.charCodeAt(start + 2) === 45 : false) return false;
      const before = text.charCodeAt(start - 1);
      if (start > 0 && isWordOrDash(before)) return false;
      return bound.open(text, named ? at : start);
    },
  };
}

/** A URL's userinfo still arriving, or a host after it (the user or password it holds goes once `@` shows). */
const URL_USERINFO = reaching(/:\/\/[^\s:/@?#"'`<>]{0,256}(?:$|:[^\s:/@?#"'`<>]{0,1024}$|(?::[^\s:/@?#"'`<>]{0,1024})?@[A-Za-z0-9.-]{0,253}$)/y);

const NETRC_OPEN = /pass(?:w(?:o(?:r(?:d(?:[ \t]{1,4}\S*)?)?)?)?)?$/iy;

/** After a flag's name: a space, then a quoted argument still open or a bare one reaching the end. */
const FLAG_REST = /(?:$|[ \t]{1,4}(?:$|"[^"\r\n]{0,4096}$|'[^'\r\n]{0,4096}$|[^\s"'`;|&<>()]*$))/y;
const QUERY_REST = /(?:$|=[^?&#\s"'`<>)]*$)/y;

/** A bare value's characters (the assignment rule's, the query parameter's, a header's): 4 KiB of them, and the name before. */
const BARE_VALUE_CAP = capOf(4 * KIB + 256, '[^\\s"\'`,;&)}\\]<>]');
const QUERY_VALUE_CAP = capOf(4 * KIB + 256, '[^?&#\\s"\'`<>)]');
const ARGUMENT_CAP = capOf(4 * KIB + 256, '[^\\s"\'`;|&<>()]');
const HEADER_VALUE_CAP = capOf(4 * KIB + 256, '[^\\s"\'`,;]');

/** A header value: optional quote, optional auth scheme, then the token, reaching the end. */
const HEADER_VALUE = `(?:$|["']?[ \\t]{0,4}(?:$|[:=][ \\t]{0,4}(?:$|["']?(?:[A-Za-z]{1,10}[ \\t]{1,4})?[^\\s"'\`,;]*$)))`;

/**
 * Every rule's bound, by rule name. docs/redaction.md lists the
 * longest hold each gives; a rule without an entry gets DEFAULT_BOUND.
 */
export const HOLD_BOUNDS: Readonly<Record<string, HoldBound>> = {
  // held by pemStart: the block from its header to its footer, at most MAX_PEM_HOLD
  'pem-private-key': { lead: 0, open: () => false },
  'anthropic-key': token(),
  'openai-key': token(),
  'github-token': token(),
  'github-pat': token(),
  'gitlab-token': token(),
  'slack-token': token(),
  'slack-app-token': token(),
  // the id, a separator, then the 40 characters of its secret still arriving
  'aws-secret-after-id': reaching(/(?:akia|asia)[A-Z0-9]{0,16}(?:$|[ \t]{0,4}(?:$|[,;|\t ][ \t]{0,4}[A-Za-z0-9/+]{0,40}$))/iy),
  'aws-access-key-id': token(),
  'google-api-key': token(),
  // `sk_` or `rk_` before the `_live_` / `_test_` keyword
  'stripe-key': token(2, KIB, ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_']),
  'npm-token': token(),
  'huggingface-token': token(),
  'groq-key': token(),
  'pypi-token': token(0, 8 * KIB),
  'stripe-webhook-secret': token(),
  'google-oauth-secret': token(),
  'google-oauth-token': token(0, 4 * KIB),
  'shopify-token': token(),
  'digitalocean-token': token(),
  'vault-token': token(),
  'databricks-token': token(),
  'atlassian-token': token(),
  'xai-key': token(),
  'replicate-token': token(),
  'perplexity-key': token(),
  'tailscale-key': token(),
  'square-token': token(),
  'linear-key': token(),
  'postman-key': token(),
  'age-secret-key': token(),
  'doppler-token': token(),
  'mapbox-secret': token(0, 4 * KIB),
  'sendgrid-key': token(),
  // its three parts: 8 + 16 + 8 KiB
  jwt: token(0, 32 * KIB + 2),
  // the name, a gap of up to 32 characters on the line, 40 key characters, one more to see the key end
  'aws-secret-access-key': reaching(/secret[^\r\n]{0,100}$/iy),
  'cookie-header': reaching(
    /cookie(?:$|["']?[ \t]{0,4}(?:$|:[ \t]{0,4}["'`]?[^\r\n"'`,\\]*$)|[ \t=][ \t]{0,4}["'`]?[^\r\n"'`,\\]*$)/iy,
    0,
    // a Cookie header longer than any server takes (8–16 KiB) is still read whole, past it a blob
    { ...capOf(64 * KIB, '[^\\r\\n"\'`,\\\\]'), list: true },
  ),
  // a userinfo still arriving, or a host after it: a Sentry DSN's key is known to be one only once `sentry` shows up
  'url-password': URL_USERINFO,
  // a token as the user part: the same userinfo, held the same way
  'url-token-user': URL_USERINFO,
  // the key before `@…sentry` is held by url-password's bound until the host shows `sentry` (or ends)
  'sentry-dsn': { lead: 0, open: () => false },
  'slack-webhook': reaching(/hooks\.slack\.com\/[A-Za-z0-9_\/-]*$/iy, 0, capOf(KIB, '[A-Za-z0-9_\\/-]')),
  // from the host on: the id, then the token still arriving
  'discord-webhook': reaching(/\/api\/webhooks\/[0-9]{0,24}(?:$|\/[A-Za-z0-9_-]*$)/iy, 0, capOf(KIB, '[A-Za-z0-9_\\/-]')),
  'query-param': named(isSensitiveQueryParam, QUERY_REST, QUERY_VALUE_CAP),
  'authorization-header': reaching(new RegExp(`authorization${HEADER_VALUE}`, 'iy'), 0, HEADER_VALUE_CAP),
  'api-key-header': reaching(new RegExp(`(?:api-key|auth-token)${HEADER_VALUE}`, 'iy'), 0, HEADER_VALUE_CAP),
  'bearer-token': reaching(/bearer(?:$|[ \t]{1,4}[A-Za-z0-9._~+/=-]*$)/iy, 0, capOf(4 * KIB + 16, '[A-Za-z0-9._~+/=-]')),
  'sensitive-assignment': named(isSensitiveKey, ASSIGNMENT_REST, BARE_VALUE_CAP),
  // `auth`, its operator, then the base64 of user:password still arriving
  'basic-auth-field': reaching(/auth["']?[ \t]{0,4}(?:$|[:=][ \t]{0,4}["']?[A-Za-z0-9+/=]*$)/iy, 0, capOf(4 * KIB + 64, '[A-Za-z0-9+/=]')),
  // `password` after a .netrc word still being written, or its value still arriving
  'netrc-password': {
    lead: 0,
    open: (text, at) => reachesEnd(NETRC_OPEN, text, at) && endsNetrcWord(text.slice(Math.max(0, at - NETRC_REACH), at)),
    cap: capOf(KIB + 16, '\\S'),
  },
  // `identified`, then `by`, maybe a plugin or `password`, and the value still arriving: the rest of the line (a superset)
  'sql-identified-by': reaching(/identified[^\r\n]{0,1200}$/iy, 0, capOf(KIB + 128, '[^\\s\'"`;]')),
  // the flag's name after its `--`, then its value as the next argument
  'command-flag': argumentBound(named(isSensitiveKey, FLAG_REST, ARGUMENT_CAP), true),
  // the option at an argument's start, glued or spaced, a user name and `:` for -u, then the value
  'command-password': argumentBound(
    reaching(/-?-(?:p|a|u|user)(?:$|(?:[ \t]{1,4}|=)?(?:$|["'][^"'\r\n]{0,4096}$|["']?[^\s:"'@/]{0,256}:?[^\s"'`;|&<>()]*$))/y, 0, ARGUMENT_CAP),
    false,
  ),
};

/** For a rule this file does not know: its match may start 128 characters before its keyword and is open within 4 KiB or while no space follows. */
export const DEFAULT_BOUND: HoldBound = {
  lead: 128,
  open: (text, at) => text.length - at <= 4096 || reachesEnd(/\S*$/y, text, at),
  cap: capOf(4 * KIB + 128, '\\S'),
};
