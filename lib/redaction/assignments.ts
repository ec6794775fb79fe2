/**
 * `NAME=value`, `NAME: value`, `"name": "value"`, `name := "value"` where NAME
 * is a sensitive key and the value is a secret literal of 8+ characters (not a
 * reference, call, `await …` or keyword); and a call's quoted name and quoted
 * value (`define('DB_PASSWORD', '…')`, a default in `os.getenv("API_KEY", "…")`,
 * `props.setProperty("password", "…")`). Only the value is replaced: quotes
 * and the rest of the line survive.
 */

import { SENSITIVE_KEY_KEYWORDS, isSensitiveKey } from './keys.js';
import { isCookieList } from './cookies.js';
import { isSecretLiteral, looksRandom, type LiteralContext } from './literals.js';
import { NAME_ANCHOR, anchoredScanRule } from './anchored.js';
import { runReader, scanRule, type SecretRange, type TextRule } from './rule.js';

/**
 * An optionally quoted name, then an operator. A name starts at a letter or
 * underscore not glued to a preceding name character (a leading `-`, as in
 * `--password=`, is allowed) and may hold dots and dashes (`db.password`, `x-api-key`).
 * A name may be quoted `\"…\"`: JSON inside a JSON string (`"body":"{\"password\":\"…\"}"`), and be a
 * subscript (`os.environ["API_KEY"] = …`, `$config['db_password'] = …`, `ENV[:token] = …`).
 */
const NAME_AND_OPERATOR =
  /(?<![A-Za-z0-9_.])(\\"|["']?)([A-Za-z_][A-Za-z0-9_.-]{0,127})\1(\]?)([ \t]{0,32})(:=|=>|:|=|,|\|\||\?\?|>|(?<=[ \t])(?=')|(?<=[ \t])is(?=[ \t])|\r?\n[ \t]{0,32}value:|value=)([ \t]{0,32})/g;

/** Values, tried at the position right after the operator (sticky). */
const QUOTED_VALUE: Readonly<Record<string, RegExp>> = {
  // a backslash escapes in double quotes (JSON, most languages): `"Zq8w\"Lx3m"` is one value
  '"': /"((?:[^"\\\r\n]|\\[^\r\n]){0,4096})"/y,
  "'": /'([^'\r\n]{0,4096})'/y,
  '`': /`([^`\r\n]{0,4096})`/y,
};
const BARE_VALUE_CHAR = /[^\s"'`,;&)}\]<>]/;
/**
 * A bare value longer than this is redacted without being judged: no reference, placeholder or word is that long,
 * and a run holding many names (`token=https://token=https://…`) was judged again from each: quadratic.
 */
const LONGEST_JUDGED = 4096;

const COOKIE_HEADER = /^(?:set[-_.]?)?cookie$/i;
const UPPER_NAME = /^[A-Z][A-Z0-9_]{0,127}$/;

interface Value {
  readonly start: number;
  readonly end: number;
  readonly quoted: boolean;
}

/** A value quoted `\"…\"` (JSON inside a JSON string): up to the next unescaped-looking `\"`. */
const ESCAPED_QUOTED_VALUE = /\\"((?:[^"\\\r\n]|\\[^"\r\n]){0,4096})\\"/y;

function readValue(text: string, at: number): Value | undefined {
  ESCAPED_QUOTED_VALUE.lastIndex = at;
  const escaped = ESCAPED_QUOTED_VALUE.exec(text);
  if (escaped) return { start: at + 2, end: at + 2 + escaped[1].length, quoted: true };
  const quote = QUOTED_VALUE[text.charAt(at)];
  if (quote) {
    quote.lastIndex = at;
    const quoted = quote.exec(text);
    if (quoted) return { start: at + 1, end: at + 1 + quoted[1].length, quoted: true };
  }
  // no quote, or one that is never closed on this line: judge what follows as a bare value
  const start = at + (quote ? 1 : 0);
  if (!BARE_VALUE_CHAR.test(text.charAt(start))) return undefined;
  return { start, end: bareValueEnd(text, start), quoted: false };
}

/** A bare value's end, the last one's run remembered (its names each read it to the end); a new one for each text. */
let bareValueEnd = runReader(BARE_VALUE_CHAR);

/** Whether a value is a secret literal; a bare one past LONGEST_JUDGED is, unread. */
const isSecretValue = (value: string, context: LiteralContext): boolean =>
  (!context.quoted && value.length > LONGEST_JUDGED) || isSecretLiteral(value, context);

/**
 * Whether the quote right after the operator closes a span opened just before
 * the name (or the longer name it ends) — `` `--password=` `` in Markdown,
 * `'--token=' + value` in code — so that no value follows.
 */
function closesSpan(text: string, nameStart: number, at: number): boolean {
  const quote = text.charAt(at);
  if (QUOTED_VALUE[quote] === undefined) return false;
  let before = nameStart - 1;
  while (before >= 0 && /[A-Za-z0-9_.-]/.test(text.charAt(before))) before--;
  return text.charAt(before) === quote;
}

/**
 * A type annotation between `:` and `=`: `apiKey: string = "…"` (TypeScript), `api_key: str = "…"` (Python, a
 * pydantic setting), `token: Option<String> = …`, `secret: List[str] = …`; the value comes after its `=`.
 */
const TYPE = String.raw`[A-Za-z_$][\w$.]{0,63}(?:<[^<>\r\n]{0,64}>|\[[^[\]\r\n]{0,64}\])?(?:\[\])?`;
const TYPE_THEN_EQUALS = new RegExp(String.raw`${TYPE}(?:[ \t]{0,2}\|[ \t]{0,2}${TYPE}){0,3}[ \t]{0,32}=(?![=>])[ \t]{0,32}`, 'y');

/** Where the value after `name:` starts: after a type annotation and its `=`, or right after the `:`. */
function valueStart(text: string, at: number): number {
  TYPE_THEN_EQUALS.lastIndex = at;
  return TYPE_THEN_EQUALS.test(text) ? TYPE_THEN_EQUALS.lastIndex : at;
}

/** `Bearer <token>` under an authorization key: the authorization rule judged the token, this one judges what follows the scheme. */
const AUTH_SCHEME = /^(?:bearer|basic|token|digest|negotiate|apikey)[ \t]{1,4}/i;

/** `case 'password':`, `case "token":` (a switch on field names): a label, not a name given a value. */
const CASE_LABEL = /\bcase[ \t]{1,4}$/;

function locate(match: RegExpExecArray): SecretRange | undefined {
  const [whole, nameQuote, name, bracket, before, operator, after] = match;
  if (!isSensitiveKey(name)) return undefined;
  const end = match.index + whole.length;
  if (operator === ',') return nameQuote === '"' || nameQuote === "'" ? (valueAfter(match, end, bracket, CALL_OPENS, true) ?? jsonPairValue(match, end, bracket)) : undefined;
  if (operator.endsWith('value:')) return valueAfter(match, end, bracket, NAME_LINE_BEFORE);
  if (operator === 'value=') return nameQuote && before ? valueAfter(match, end, bracket, NAME_ATTRIBUTE_BEFORE, true) : undefined;
  if (operator === '>') return nameQuote === '' && before === '' ? valueAfter(match, end, bracket, ELEMENT_OPENS) : undefined;
  if (operator === '||' || operator === '??') return nameQuote === '' ? defaultValue(match, end, bracket) : undefined;
  if (operator === '') return SQL_PASSWORD.test(name) ? valueAfter(match, end, bracket, ANYTHING, true) : undefined;
  if (operator === 'is') return nameQuote === '' ? proseValue(match, end, bracket) : undefined;
  // a subscript by a quoted name or a symbol (`ENV[:token]`), not by a variable (`row[token] = …`)
  if (bracket && nameQuote === '' && match.input.charAt(match.index - 1) !== ':') return undefined;
  const typed = operator === ':' && nameQuote === '' && !bracket;
  if (operator === ':' && CASE_LABEL.test(match.input.slice(Math.max(0, match.index - 16), match.index))) return undefined;
  const at = typed ? valueStart(match.input, end) : end;
  if (nameQuote === '' && after === '' && closesSpan(match.input, match.index, at)) return undefined;
  const value = readValue(match.input, at);
  if (!value) return undefined;
  // `NAME=value`, and `NAME: value` under a capitalised name (docker-compose's environment, a CI file's env)
  const envStyle = (operator === '=' && before === '' && after === '') || (operator === ':' && nameQuote === '' && UPPER_NAME.test(name));
  const literal = match.input.slice(value.start, value.end);
  // an escaped line break (`token:\nhttps://…` inside a string literal): the value is on another line
  if (!value.quoted && /^\\[nrt]/.test(literal)) return undefined;
  // `Cookie: a=b; c=d` is the cookie rule's
  if (operator === ':' && COOKIE_HEADER.test(name) && isCookieList(literal)) return undefined;
  const judged = literal.replace(AUTH_SCHEME, '');
  return isSecretValue(judged, { quoted: value.quoted, envStyle }) ? [value.start, value.end] : undefined;
}

/** An XML element holding the value: `<password>…</password>` (Maven's settings.xml), `<apiKey>…</apiKey>`. */
const ELEMENT_OPENS = /<$/;
/**
 * A default after a name, quoted: `process.env.API_KEY || "…"`, `config.token ?? '…'`; and SQL's quoted password after
 * a blank: `CREATE ROLE app LOGIN PASSWORD '…'`, `ALTER USER app WITH PASSWORD '…'`.
 */
const ANYTHING = /(?:)/;

/** A default is often a stand-in (`|| 'not-needed'`, `?? 'anonymous'`): one is taken as a secret only when it looks random. */
function defaultValue(match: RegExpExecArray, end: number, bracket: string): SecretRange | undefined {
  const range = valueAfter(match, end, bracket, ANYTHING, true);
  return range && looksRandom(match.input.slice(range[0], range[1])) ? range : undefined;
}
const SQL_PASSWORD = /^password$/i;

/**
 * A secret told in prose, as a model repeats what it read: `the database password is …`, `` the token is `…` ``.
 * Prose says `the token is invalid`, so the value goes only when it looks random and is one word: up to a blank (a
 * password may hold `&` or `;`), without the sentence's closing punctuation, or quoted without blanks (a quote may
 * open a span of prose: `` the token is `a` or `b` ``).
 */
function proseValue(match: RegExpExecArray, end: number, bracket: string): SecretRange | undefined {
  if (bracket) return undefined;
  const text = match.input;
  if (QUOTED_VALUE[text.charAt(end)] !== undefined) {
    const range = valueAfter(match, end, bracket, ANYTHING, true);
    return range && isProseSecret(text.slice(range[0], range[1])) ? range : undefined;
  }
  PROSE_WORD.lastIndex = end;
  const word = PROSE_WORD.exec(text)?.[0];
  const value = word === undefined ? undefined : proseWordValues(word).find((value) => isProseSecret(value) && isSecretLiteral(value, { quoted: false, envStyle: true }));
  return value === undefined ? undefined : [end, end + value.length];
}

/** The longest word taken whole for a secret told in prose (the stream holds one that long while it goes on). */
export const MAX_PROSE_WORD = 256;
const PROSE_WORD = new RegExp(`\\S{1,${MAX_PROSE_WORD + 1}}`, 'y');
/** What ends a sentence or a clause after a word: `is Xk29….`, `is Xk29…,`, `(the key is Xk29…)`. */
const PROSE_WORD_END = /[.,;:!?)\]}"'`]+$/;
/** Closing punctuation that no word character follows: where a clause ends inside a run without blanks. */
const CLAUSE_END = /[.,;:!?)\]}"'`](?![A-Za-z0-9_])/;

/**
 * What may be the value in a word told in prose, given its characters up to a blank (at most MAX_PROSE_WORD + 1),
 * in the order they are tried: the word without the sentence's closing punctuation (a password may hold `&` or
 * `!#`), then the word up to its first closing punctuation that no word character follows, within MAX_PROSE_WORD
 * characters: a sentence glued to code or JSON without a blank (`is Xk29….,{"c":…`, `is Xk29….,function(a,b)…`).
 */
export function proseWordValues(word: string): string[] {
  const values = word.length <= MAX_PROSE_WORD ? [word.replace(PROSE_WORD_END, '')] : [];
  const clauseEnd = CLAUSE_END.exec(word);
  if (clauseEnd !== null && clauseEnd.index < MAX_PROSE_WORD && clauseEnd.index !== values[0]?.length) values.push(word.slice(0, clauseEnd.index));
  return values;
}

/** One word, random-looking, with no quote in it (`` rea`highWaterMark `` is prose around a code span). */
const isProseSecret = (value: string): boolean => looksRandom(value) && !/[\s"'`]/.test(value);

/** What comes before a call's first argument: `os.getenv("DB_PASSWORD", "…")`, `define('AUTH_KEY', '…')`. */
const CALL_OPENS = /\([ \t]{0,4}$/;

/**
 * A name given as the value of a `name` field, its value in the `value` field after it: Kubernetes' env
 * (`- name: DB_PASSWORD` then `  value: …` on the next line), the same as JSON (`{"name": "DB_PASSWORD", "value": "…"}`),
 * XML attributes (`<add key="ApiKey" value="…"/>`).
 */
const NAME_LINE_BEFORE = /\bname:[ \t]{0,4}$/;
const NAME_FIELD_BEFORE = /["']name["'][ \t]{0,4}:[ \t]{0,4}$/;
/** XML's `key="ApiKey" value="…"` (.NET's appSettings), `name="password" value="…"` (Spring's properties). */
const NAME_ATTRIBUTE_BEFORE = /\b(?:key|name)=$/;
const VALUE_FIELD = /["']value["'][ \t]{0,4}:[ \t]{0,4}/y;

/** `{"name": "DB_PASSWORD", "value": "…"}`: the value field after the comma. */
function jsonPairValue(match: RegExpExecArray, end: number, bracket: string): SecretRange | undefined {
  VALUE_FIELD.lastIndex = end;
  return VALUE_FIELD.test(match.input) ? valueAfter(match, VALUE_FIELD.lastIndex, bracket, NAME_FIELD_BEFORE) : undefined;
}

/**
 * The secret value at `at`, for a name whose text right before ends as `before` says (a call's `(`, a `name`
 * field); `quoted`: only a quoted value is one.
 */
function valueAfter(match: RegExpExecArray, at: number, bracket: string, before: RegExp, quoted = false): SecretRange | undefined {
  if (bracket || !before.test(match.input.slice(Math.max(0, match.index - 24), match.index))) return undefined;
  const value = readValue(match.input, at);
  if (!value || (quoted && !value.quoted)) return undefined;
  return isSecretValue(match.input.slice(value.start, value.end), { quoted: value.quoted, envStyle: true }) ? [value.start, value.end] : undefined;
}

/** The reference: every name in the text tried in turn (tests compare ASSIGNMENT_RULE with it). */
export const ASSIGNMENT_SCAN: TextRule = scanRule('sensitive-assignment', SENSITIVE_KEY_KEYWORDS, NAME_AND_OPERATOR, locate);

const ANCHORED = anchoredScanRule('sensitive-assignment', SENSITIVE_KEY_KEYWORDS, NAME_AND_OPERATOR, locate, NAME_ANCHOR, isSensitiveKey);

/** `redact` over one text, the text let go after (bareValueEnd holds the last one it read). */
function oneText(redact: () => string): string {
  try {
    return redact();
  } finally {
    bareValueEnd = runReader(BARE_VALUE_CHAR);
  }
}

/** The same, trying only names around a keyword (every sensitive name holds one). */
export const ASSIGNMENT_RULE: TextRule = {
  ...ANCHORED,
  apply: (text) => oneText(() => ANCHORED.apply(text)),
  applyAt: (text, starts) => oneText(() => ANCHORED.applyAt!(text, starts)),
};
