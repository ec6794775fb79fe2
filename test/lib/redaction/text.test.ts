import t from 'tap';
import fc from '../../helpers/property.js';
import { REDACTED } from '../../../lib/redaction/rule.js';
import { decodeSecretEscapes } from '../../../lib/redaction/escapes.js';
import { secretsCorpus } from '../../fixtures/secrets/corpus.js';
import { MIN_SECRET_LENGTH, TEXT_RULES, mayContainSecret, prepareSecrets, redactText, mayContainSecretInJson, mayContainSecretInJsonChanged } from '../../../lib/redaction/text.js';
import { noMoreShown } from '../../helpers/redacted.js';

const body = (n: number): string => 'Zq7Wm3Xk9P'.repeat(Math.ceil(n / 10)).slice(0, n);

t.test('ordinary text is returned unchanged', async (t) => {
  for (const text of [
    '', 'task-list', 'risk-level', 'the bearer of bad news', 'tokenizer', 'promptTokens: 12',
    'max_tokens=4096', 'const token = await loadCredential(profile);', 'let password = prompt("Password: ");',
    'run_20261130053326_ab12cd', 'call_1', 'Use `sessionId` and `runId` to correlate events.',
    'See https://example.com/docs?page=2#tokens for the tokenizer and password rules.',
    'I fixed the bug in src/auth/token.ts: the key was read twice.',
  ]) {
    t.equal(redactText(text), text, text);
  }
});

t.test('code and prose that merely mention keys come out byte-identical', async (t) => {
  for (const text of [
    'task-list', 'risk-level', 'the bearer of bad news', 'promptTokens', 'tokenizer', 'max_tokens', 'token_count',
    'const token = await loadCredential(profile);', 'let password = prompt("Password: ");',
    'TOKEN=$TOKEN', 'export API_KEY=${X}', 'const apiKey = process.env.X;', 'password: ${X}', 'token = $TOKEN',
    '{"promptTokens": 12, "max_tokens": 4096, "token_count": 3}', 'Set the AWS secret access key first.',
    'the Cookie: header', 'const msg = `${user}`; msg.content', 'Trade with Asia grew.',
  ]) {
    t.equal(redactText(text), text, text);
  }
});

t.test('mayContainSecret: the combined prefilter, plus loaded credentials', async (t) => {
  t.notOk(mayContainSecret('The stream stops when the buffer is full.'));
  t.notOk(mayContainSecret(''));
  t.ok(mayContainSecret('see sk-'));
  t.ok(mayContainSecret('Authorization'));
  t.ok(mayContainSecret('PASSWORD'));
  const loaded = 'plainvalue' + '42';
  t.notOk(mayContainSecret(`x ${loaded} y`));
  t.ok(mayContainSecret(`x ${loaded} y`, { secrets: [loaded] }));
  for (const text of ['hello world', `my ${loaded}`, 'a\nb\tc', 'sk- only']) {
    if (!mayContainSecret(text, { secrets: [loaded] })) t.equal(redactText(text, { secrets: [loaded] }), text);
  }
});

// The prefilter reads each text once, character by character: a keyword in its first or last characters,
// one character past a long stretch without any, or one that overlaps another, still wakes its rule.
t.test('a secret at either edge of a long text, or right past a stretch without keywords, is found', async (t) => {
  const prose = 'The stream stops when the buffer is full, and resumes on drain. '.repeat(200);
  const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${body(43)}`;
  t.equal(redactText(`${prose}sk-proj-${body(40)}`), `${prose}${REDACTED}`, 'the key ends the text');
  t.equal(redactText(`ghp_${body(36)} ${prose}`), `${REDACTED} ${prose}`, 'the token starts it');
  t.equal(redactText(`${prose}\nPASSWORD=${body(12)}`), `${prose}\nPASSWORD=${REDACTED}`, 'an assignment ends it, after an escape');
  t.equal(redactText(`${prose}${jwt}`), `${prose}${REDACTED}`, 'a JWT glued to the prose');
  t.equal(redactText(`x-api-key: ${body(24)}`), `x-api-key: ${REDACTED}`, 'keywords inside keywords (api-key, key)');
  t.equal(redactText(`${prose}\u0073k-ant-${body(30)}`), `${prose}${REDACTED}`, 'an escaped key: the escape keyword wakes the decoding');
});

t.test('every keyword of every rule wakes the prefilter: at either edge, any case, beside non-ASCII and astral characters', async (t) => {
  for (const keyword of new Set(TEXT_RULES.flatMap((rule) => rule.keywords))) {
    const texts = [keyword, `${keyword} tail`, `lead ${keyword.toUpperCase()}`, `é${keyword}€`, `\u{1F600}${keyword}\u{1D4A6}`, `${'ü'.repeat(300)}${keyword}`];
    for (const text of texts) {
      t.ok(mayContainSecret(text) && mayContainSecretInJson(JSON.stringify({ output: text })), JSON.stringify(text));
    }
  }
  t.notOk(mayContainSecret('\u{1F600} é€ü \u{1D4A6}ey \u017Fk- \u212Aey'), 'characters that only look like them');
});

t.test('no keyword can appear by writing the marker', async (t) => {
  const marker = REDACTED.toLowerCase();
  for (const rule of TEXT_RULES) {
    for (const keyword of rule.keywords) {
      t.notOk(/[[\]]/.test(keyword) || marker.includes(keyword), `${rule.name}: ${keyword}`);
    }
  }
});

t.test('rules compose over one text', async (t) => {
  const key = 'sk-' + 'proj-' + body(40);
  const text = [
    `export OPENAI_API_KEY=${key}`,
    `curl -H "Authorization: Bearer ${body(24)}" "https://api.example.com/v1?api_key=${body(12)}&n=1"`,
    `password: hunter2hunter2`,
    `git remote add origin https://me:${body(10)}@git.example.com/r.git`,
    `Cookie: sid=${body(12)}; theme=dark`,
  ].join('\n');
  t.equal(
    redactText(text),
    [
      `export OPENAI_API_KEY=${REDACTED}`,
      `curl -H "Authorization: Bearer ${REDACTED}" "https://api.example.com/v1?api_key=${REDACTED}&n=1"`,
      `password: ${REDACTED}`,
      `git remote add origin https://me:${REDACTED}@git.example.com/r.git`,
      `Cookie: sid=${REDACTED}; theme=dark`,
    ].join('\n'),
  );
});

t.test('the secrets option: exact loaded values, longest first', async (t) => {
  const loaded = 'plainvalue' + '42';
  t.equal(redactText(`the key is ${loaded}.`, { secrets: [loaded] }), `the key is ${REDACTED}.`);
  t.equal(redactText(`a ${loaded}${loaded} b`, { secrets: [loaded] }), `a ${REDACTED}${REDACTED} b`);
  t.equal(
    redactText(`x ${loaded}-suffix y`, { secrets: [loaded, `${loaded}-suffix`] }),
    `x ${REDACTED} y`,
    'the longer secret wins over the one it contains',
  );
  t.equal(redactText('pin 1234567 here', { secrets: ['1234567'] }), 'pin 1234567 here', 'under 8 chars ignored');
  t.equal(redactText('abc', { secrets: [] }), 'abc');
});

t.test('prepareSecrets filters, dedupes, sorts and caches', async (t) => {
  const secrets = ['short', 'eightchr', 'a-much-longer-one', 'eightchr'];
  const prepared = prepareSecrets(secrets);
  t.same(prepared, ['a-much-longer-one', 'eightchr']);
  t.equal(prepareSecrets(secrets), prepared, 'cached per array');
  t.same(prepareSecrets(undefined), []);
  t.equal(MIN_SECRET_LENGTH, 8);
});

t.test('rules have unique names and lowercase keywords', async (t) => {
  const names = TEXT_RULES.map((rule) => rule.name);
  t.equal(new Set(names).size, names.length);
  for (const rule of TEXT_RULES) {
    for (const keyword of rule.keywords) t.equal(keyword, keyword.toLowerCase(), `${rule.name}: ${keyword}`);
  }
});

t.test('large ordinary text full of keywords comes out unchanged', async (t) => {
  const prose = 'The tokenizer splits text; promptTokens: 12, max_tokens=4096, see task-list and key points. ';
  const text = prose.repeat(20000);
  t.equal(redactText(text), text);
});

// --- properties ---

const tokenChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
const upperChar = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
const run = (char: fc.Arbitrary<string>, min: number, max: number): fc.Arbitrary<string> =>
  fc.array(char, { minLength: min, maxLength: max }).map((chars) => chars.join(''));

/** Generated secrets of every self-identifying kind. */
const secret: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.constantFrom('sk-', 'sk-proj-', 'sk-svcacct-', 'sk-admin-', 'sk-ant-api03-'), run(tokenChar, 20, 80)).map(([p, b]) => p + b),
  fc.tuple(fc.constantFrom('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), run(tokenChar, 36, 36)).map(([p, b]) => p + b),
  run(tokenChar, 40, 82).map((b) => 'github_pat_' + b),
  run(tokenChar, 20, 30).map((b) => 'glpat-' + b),
  fc.tuple(fc.constantFrom('xoxb-', 'xoxa-', 'xoxp-', 'xoxr-', 'xoxs-', 'xapp-'), run(tokenChar, 10, 60)).map(([p, b]) => p + b),
  fc.tuple(fc.constantFrom('AKIA', 'ASIA', 'ABIA', 'ACCA'), run(upperChar, 16, 16)).map(([p, b]) => p + b),
  fc.tuple(fc.constantFrom('glptt-', 'gldt-', 'glrt-', 'gloas-', 'glagent-'), run(tokenChar, 20, 64)).map(([p, b]) => p + b),
  run(tokenChar, 52, 52).map((b) => 'gsk_' + b),
  fc.tuple(run(tokenChar, 22, 22), run(tokenChar, 43, 43)).map(([a, b]) => `SG.${a}.${b}`),
  run(tokenChar, 35, 35).map((b) => 'AIza' + b),
  fc.tuple(fc.constantFrom('sk_live_', 'rk_live_', 'sk_test_'), run(tokenChar, 24, 40)).map(([p, b]) => p + b),
  run(tokenChar, 36, 36).map((b) => 'npm_' + b),
  run(tokenChar, 34, 34).map((b) => 'hf_' + b),
  fc.tuple(run(tokenChar, 10, 40), run(tokenChar, 10, 80), run(tokenChar, 20, 43)).map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}`),
  run(tokenChar, 8, 40).map((b) => `-----BEGIN PRIVATE KEY-----\n${b}\n-----END PRIVATE KEY-----`),
);

/** Text that is likely to interact with the rules. */
const fragment: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 12 }),
  run(tokenChar, 1, 30),
  run(tokenChar, 200, 1300),
  fc.constantFrom(
    ' ', '\n', '"', "'", '=', ': ', '&', '?', '@', '/', '-', '_', '.', '$', '(', ')', '[', ']', '{', '}', ',', ';',
    'password', 'token', 'apiKey', 'API_KEY', 'secret', 'Authorization: ', 'Bearer ', 'x-api-key: ', 'https://',
    'user:', '?token=', '&sig=', 'sk-', 'ghp_', 'AKIA', 'eyJ', 'hf_', '-----BEGIN PRIVATE KEY-----',
    'Cookie: ', 'Set-Cookie: ', '; Path=/', 'sid=', 'aws_secret_access_key = ', 'gsk_', 'SG.', 'glrt-',
    '-----END PRIVATE KEY-----', REDACTED, 'await ', 'process.env.', 'export ', ' := ', ' => ',
  ),
  secret,
);
const text = fc.array(fragment, { maxLength: 24, size: 'max' }).map((parts) => parts.join(''));

t.test('property: redacting twice equals redacting once', async (t) => {
  fc.assert(
    fc.property(text, (input) => {
      const once = redactText(input);
      return redactText(once) === once;
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

t.test('property: a generated secret never survives', async (t) => {
  const separator = fc.constantFrom(' ', '\n', '"', "'", ': ', '=', '(', ', ', '\t');
  fc.assert(
    fc.property(text, separator, secret, separator, text, (before, open, key, close, after) => {
      return !redactText(before + open + key + close + after).includes(key);
    }),
    { numRuns: 3000 },
  );
  t.pass();
});

t.test('property: a loaded secret never survives', async (t) => {
  fc.assert(
    fc.property(text, run(tokenChar, 8, 40), text, (before, loaded, after) => {
      return !redactText(before + loaded + after, { secrets: [loaded] }).includes(loaded);
    }),
    { numRuns: 1000 },
  );
  t.pass();
});

t.test('property: a credential in use only adds to what is redacted, pieces of it inside other secrets too', async (t) => {
  const credential = fc.tuple(run(tokenChar, 12, 40), fc.nat(9)).map(([body, digit]) => `${body}${digit}`);
  /** Text, or a piece of the credential (8 characters or more) from a place in it. */
  const part = fc.oneof(fragment, fc.record({ at: fc.nat(), length: fc.integer({ min: 8, max: 40 }) }));
  /** A part, often after a secret's beginning and before more token characters. */
  const line = fc.tuple(fc.constantFrom('', '', 'sk-', 'ghp_', 'key=', 'password: ', 'Bearer ', '?token='), part, run(tokenChar, 0, 40));
  fc.assert(
    fc.property(credential, fc.array(line, { maxLength: 12 }), (loaded, lines) => {
      const text = lines
        .map(([before, part, after]) => before + (typeof part === 'string' ? part : loaded.slice(part.at % (loaded.length - 7)).slice(0, part.length)) + after)
        .join('');
      const withCredential = redactText(text, { secrets: [loaded] });
      return noMoreShown(withCredential, redactText(text)) && !withCredential.includes(loaded);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

t.test('property: when mayContainSecret says no, redactText returns the text as it is', async (t) => {
  fc.assert(
    fc.property(text, (input) => mayContainSecret(input) || redactText(input) === input),
    { numRuns: 3000 },
  );
  t.pass();
});

// No timing assertion (speed lives in bench/): catastrophic backtracking would hang past tap's timeout.
t.test('adversarial input for the name, cookie and AWS rules finishes, idempotently', async (t) => {
  const inputs = [
    'key'.repeat(30000) + '=', 'x-'.repeat(30000) + 'token=' + 'a1'.repeat(10), `${'apiKey: '.repeat(20000)}x`,
    `password: ${'a.'.repeat(3000)}b1`, `Cookie: ${'a=b;'.repeat(20000)}`, `Set-Cookie: ${'n=v; '.repeat(20000)}`,
    'aws secret access key '.repeat(5000), `token=${'\\n'.repeat(20000)}`, `${'"token": '.repeat(20000)}"`,
  ];
  for (const input of inputs) {
    const once = redactText(input);
    t.equal(redactText(once), once, `${input.slice(0, 16)}… (${input.length} chars)`);
  }
});

t.test('a piece of a credential in use inside another secret hides none of that secret from its rule', async (t) => {
  const secrets = ['sk-test-spooled-000000000000'];
  t.equal(redactText('key=sk-00000000ab12ab12ab12ab12ab12', { secrets }), `key=${REDACTED}`);
  t.equal(redactText('see ghp_000000000000abcdefabcdefabcdefabcdef here', { secrets }), `see ${REDACTED} here`);
  t.equal(redactText(`a ${secrets[0]}sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t b`, { secrets }), `a ${REDACTED} b`, 'a token glued to it');
  t.equal(redactText(`a ${secrets[0]}.sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8t b`, { secrets }), `a ${REDACTED}.${REDACTED} b`, 'a token after it');
});

t.test('a credential in use is found in pieces, in base64, URL-encoded and escaped', async (t) => {
  const key = 'zk4821Qm7TfRp2LxWc9VbN3sYdHg6JkAe5Uo';
  const secrets = [key];
  const clean = (text: string) => redactText(text, { secrets });
  // `cut -c1-12` and `cut -c13-`, each in a tool output of its own
  t.equal(clean(`${key.slice(0, 12)}\n`), `${REDACTED}\n`);
  t.equal(clean(`${key.slice(12)}\n`), `${REDACTED}\n`);
  t.equal(clean(`the end: ${key.slice(-8)}`), `the end: ${REDACTED}`, 'a piece of 8 characters');
  t.equal(clean(`x ${key.slice(0, 7)} y`), `x ${key.slice(0, 7)} y`, 'under 8 characters a piece is left alone');
  t.equal(clean('abcdefghijklmnop'), 'abcdefghijklmnop', 'no piece, nothing to do');
  t.equal(redactText('keys look like sk-proj-…', { secrets: ['sk-proj-Q7xL1spNxnyVmihA_2O76UMFxFkM'] }), 'keys look like sk-proj-…', 'a word-like piece (no digit) is not a secret');
  // base64 of the key alone, and of a line holding it (other alignments)
  t.notMatch(clean(Buffer.from(key).toString('base64')), /[A-Za-z0-9+/]{12}/);
  for (const line of [`KEY=${key}\n`, `K=${key}\n`, `${key}\n`]) {
    const encoded = Buffer.from(line).toString('base64');
    t.match(clean(encoded), REDACTED, line);
    // what is left encodes at most the few bytes around the key
    t.ok(clean(encoded).replace(REDACTED, '').length <= 12, `${JSON.stringify(line)}: ${clean(encoded)}`);
  }
  const slashed = `${key.slice(0, 10)}/${key.slice(10)}`;
  t.equal(redactText(`q=${encodeURIComponent(slashed)}&x=1`, { secrets: [slashed] }), `q=${REDACTED}&x=1`, 'URL-encoded');
  t.equal(clean(`"\\u007a${key.slice(1)}"`), `"${REDACTED}"`, 'JSON-escaped');
  t.equal(clean(`<p>&#122;${key.slice(1)}</p>`), `<p>${REDACTED}</p>`, 'an HTML entity');
});

t.test('pattern secrets written with escapes are found; other escapes are kept', async (t) => {
  const key = 'sk-proj-Q7xL1spNxnyVmihA_2O76UMFxFkM_R5Kjp1vRt';
  t.equal(redactText(`{"k": "\\u0073${key.slice(1)}", "e": "caf\\u00e9 \\u0022"}`), `{"k": "${REDACTED}", "e": "caf\\u00e9 \\u0022"}`);
  t.equal(redactText(`<code>&#x73;k&#45;${key.slice(3)}</code> &#60;b&#62;`), `<code>${REDACTED}</code> &#60;b&#62;`);
  t.equal(redactText('\\x41 and &#65; stay as they are'), '\\x41 and &#65; stay as they are', 'nothing to find: the text is untouched');
});

t.test('Slack webhooks and Sentry DSNs', async (t) => {
  t.equal(redactText('POST https://hooks.slack.com/services/T0ABCDEF12/B0ABCDEF34/Xq7wPz2RkLm9VtYb3NcJd5Hf ok'), `POST https://hooks.slack.com/services/${REDACTED} ok`);
  t.equal(redactText('dsn: "https://0123456789abcdef0123456789abcdef@o123456.ingest.sentry.io/4505"'), `dsn: "https://${REDACTED}@o123456.ingest.sentry.io/4505"`);
  t.equal(redactText('see https://docs.sentry.io/platforms/ and https://hooks.slack.com/services/'), 'see https://docs.sentry.io/platforms/ and https://hooks.slack.com/services/');
});

t.test('mayContainSecretInJson: escapes that can hide a keyword in JSON as written count as keywords', async (t) => {
  const url = '{"output":"https:\\/\\/admin:Zx9qWv27Lm@db.example.com"}';
  t.notOk(mayContainSecret(url), 'no keyword in the text as it is');
  t.ok(mayContainSecretInJson(url), '\\/ may hide ://');
  t.ok(mayContainSecretInJson('{"output":"\\u0073k-x"}'));
  t.ok(mayContainSecretInJson('{"output":"a token"}'));
  t.notOk(mayContainSecretInJson('{"output":"plain words, a/b"}'));
  t.ok(mayContainSecretInJson('{"output":"held: Zx9qWv27LmQ4"}', { secrets: ['Zx9qWv27LmQ4'] }), 'a loaded credential too');
});

t.test('a token found as written stays redacted when the text also holds a secret only decoding shows', async (t) => {
  const github = 'ghp_C1jYehRr2SVi9Q9eLNPEHlBW5iT3ifbE2RT9';
  t.equal(redactText(`\\u0061${github} and \\u0073k-proj-Q7xL1spNxnyVmihA_2O76UM`), `a${REDACTED} and ${REDACTED}`, 'a JSON escape before the token');
  t.equal(redactText(`&#120;${github} and sk-proj-Q7xL1spNxnyVmihA_2O76UM`), `&#120;${REDACTED} and ${REDACTED}`, 'an HTML entity before it, a plain key elsewhere');
  t.equal(redactText(`sk-proj-ABC\\u0044${github}`), REDACTED, 'a token as written after an escape inside one the decoded text holds');
  const key = 'sk-proj-Q7xL1spNxnyVmihA_2O76UMabcdef';
  t.equal(redactText(`${key}\\u0061bcdefghijkl`), REDACTED, 'a token as written up to an escape: what the escape continues goes too');
});

/** `char` as `\u0073`, `\x73`, `&#115;` or `&#x73;`. */
const escapeOf = (char: string, kind: number): string => {
  const code = char.charCodeAt(0);
  return [`\\u${code.toString(16).padStart(4, '0')}`, `\\x${code.toString(16).padStart(2, '0')}`, `&#${code};`, `&#x${code.toString(16)};`][kind]!;
};

t.test('property: secrets, escapes of their characters, escaped glue letters and prose: no secret shows, as written or decoded', async () => {
  // self-identifying secrets: redacted alone, whatever surrounds them
  const secrets = secretsCorpus(7, 1).map(({ secret }) => secret).filter((secret) => secret.length < 300 && redactText(secret) === REDACTED);
  const glue = fc.tuple(fc.constantFrom(...'axZ09_-'), fc.nat(3)).map(([char, kind]) => escapeOf(char, kind));
  const mark = fc.constantFrom('', '"', '\\n', '&#60;', '\\u00e9');
  // A secret is one in at least one reading: with some characters escaped (a token once decoded), or as written
  // with escaped letters glued on either side (a token as written, glued to letters once decoded).
  const escapedInside = fc.tuple(fc.constantFrom(...secrets), fc.array(fc.tuple(fc.nat(), fc.nat(3)), { minLength: 1, maxLength: 4 })).map(([secret, escapes]) => {
    const chars = [...secret];
    for (const [at, kind] of escapes) chars[at % chars.length] = escapeOf(secret[at % secret.length]!, kind);
    return { secret, written: chars.join('') };
  });
  const glued = fc.tuple(fc.option(glue), fc.constantFrom(...secrets), fc.option(glue)).map(([before, secret, after]) => ({ secret, written: `${before ?? ''}${secret}${after ?? ''}` }));
  const secret = fc.tuple(mark, fc.oneof(escapedInside, glued)).map(([before, { secret, written }]) => ({ secret, written: before + written }));
  const prose = fc.constantFrom('the', 'key', 'is', 'token:', 'and', '"', '\\n', '\\u00e9', '&#60;', '\\u0061', '&#x5a;').map((written) => ({ secret: undefined, written }));
  const separator = fc.constantFrom(' ', '\n', ', ', '" ');
  await fc.assert(
    fc.property(fc.array(fc.tuple(fc.oneof(secret, prose), separator), { minLength: 1, maxLength: 8 }), (parts) => {
      const out = redactText(parts.map(([{ written }, after]) => written + after).join(''));
      const decoded = decodeSecretEscapes(out);
      return parts.every(([{ secret }]) => secret === undefined || (!out.includes(secret) && !decoded.includes(secret)));
    }),
    { numRuns: 1500 },
  );
});

t.test('mayContainSecretInJsonChanged: of a text that differs from a clean one in one stretch, the same answer as of all of it', async (t) => {
  const clean = '{"ts":"2026-12-06T00:00:01Z","schemaVersion":1,"type":"text","runId":"r1","delta":"';
  t.notOk(mayContainSecretInJson(clean));
  const at = clean.indexOf('"2026');
  const changedTo = (value: string) => {
    const json = `${clean.slice(0, at)}${value}${clean.slice(clean.indexOf(',"schemaVersion'))}`;
    return { json, from: at, to: at + value.length };
  };
  for (const value of ['"2026-12-06T00:00:02Z"', '"token=abc"', '"x"', '"tok"', '"sk-proj-abc"', '"a\\/b"', '"secret_access"']) {
    const { json, from, to } = changedTo(value);
    t.equal(mayContainSecretInJsonChanged(json, from, to), mayContainSecretInJson(json), value);
  }
  // a keyword across the stretch's edge: `ts` and a value that begins `":…` make no keyword, but `"key` before a value does
  const edge = '{"ke":"y","delta":"';
  const keyed = '{"ke":"yes","delta":"';
  t.notOk(mayContainSecretInJson(edge));
  t.equal(mayContainSecretInJsonChanged('{"mon":"key","delta":"', 7, 12), true, 'a keyword inside the change');
  t.equal(mayContainSecretInJsonChanged(keyed, 6, 11), mayContainSecretInJson(keyed));
  const withCredential = { secrets: ['Zq8nR2vT6yU1iO5pL9kJ'] };
  t.equal(mayContainSecretInJsonChanged(`{"a":"Zq8nR2vT6yU1iO5pL9kJ","b":"x","delta":"`, 32, 35, withCredential), true, 'a credential in use outside the change: all of the text is searched');
});

t.test('a value that is not a string is refused, not looped over', async (t) => {
  for (const value of [12345, { a: 1 }, null, undefined, Buffer.from('x')]) t.throws(() => redactText(value as unknown as string), TypeError);
});

t.test("a credential in use that a rule's value would cut goes whole", async (t) => {
  const credential = 'Tr0ub4dor' + '&3x;Qz';
  const secrets = [credential];
  t.equal(redactText(`password=${credential}`, { secrets }), `password=${REDACTED}`, 'a bare value ends at the &');
  t.equal(redactText(`DB_PASSWORD=${credential} ./run`, { secrets }), `DB_PASSWORD=${REDACTED} ./run`);
  t.equal(redactText(`password=${credential}`), `password=${REDACTED}&3x;Qz`, 'unknown, the rule alone decides');
  // a token that holds a credential as a piece still goes whole (the rules first, as before)
  const token = `ghp_${'A1b2C3d4E5'}${credential.slice(0, 9)}${'f6G7h8I9j0'}`;
  t.equal(redactText(`token ${token} end`, { secrets: [credential.slice(0, 9)] }), `token ${REDACTED} end`);
});

t.test('a secrets array added to after it was first used: its new credentials are redacted too (a run adds its MCP servers\' headers to its keys)', async (t) => {
  const secrets = ['sk-proj-Q7xL1spNxnyVmihA_2O76UMFxFkM'];
  t.equal(redactText('key sk-proj-Q7xL1spNxnyVmihA_2O76UMFxFkM', { secrets }), `key ${REDACTED}`);
  secrets.push('plainHeaderKey4455667788');
  t.equal(redactText('header plainHeaderKey4455667788', { secrets }), `header ${REDACTED}`);
  t.same(prepareSecrets(secrets), ['sk-proj-Q7xL1spNxnyVmihA_2O76UMFxFkM', 'plainHeaderKey4455667788']);
});
