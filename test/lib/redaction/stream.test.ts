import t from 'tap';
import fc from '../../helpers/property.js';
import { charactersScanned, createStreamRedactor } from '../../../lib/redaction/stream.js';
import { redactText } from '../../../lib/redaction/text.js';
import { decodeSecretEscapes } from '../../../lib/redaction/escapes.js';
import { secretsCorpus } from '../../fixtures/secrets/corpus.js';
import { noMoreShown } from '../../helpers/redacted.js';

const key = ['sk-proj-', 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z'].join('');
const pemBody = 'MIIEowIBAAKCAQEA7x' + 'Qk9'.repeat(20);

/** Texts with a secret in them, in the contexts a model's answer puts them. */
export const samples: { text: string; secret: string }[] = [
  { text: `Here is the key ${key} and more text.`, secret: key },
  { text: `curl -H "Authorization: Bearer abcdef0123456789abcdef" https://api.example.com/x`, secret: 'abcdef0123456789abcdef' },
  { text: `{"apiKey": "Zq8nR2vT6yU1iO5pL9kJ3hG7"}`, secret: 'Zq8nR2vT6yU1iO5pL9kJ3hG7' },
  { text: `export DB_PASSWORD=correcthorsebattery42\nnext line`, secret: 'correcthorsebattery42' },
  { text: `password: hunter2hunter2 ok`, secret: 'hunter2hunter2' },
  { text: `Cookie: session=abcdef0123456789abcdef; theme=dark\n`, secret: 'abcdef0123456789abcdef' },
  { text: `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----\nafter`, secret: pemBody },
  { text: `postgres://admin:s3cretPassw0rd99@db.internal:5432/app`, secret: 's3cretPassw0rd99' },
  { text: `git config http.extraheader "Authorization: token ${'ghp_'}a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"`, secret: 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8' },
];

/** Feeds the pieces one by one, then flushes: the concatenation of what came out. */
function stream(pieces: string[], secrets?: string[]): { out: string; each: string[] } {
  const redactor = createStreamRedactor({ secrets });
  const each = [...pieces.map((piece) => redactor.push(piece)), redactor.flush()];
  return { out: each.join(''), each };
}

const fragments = (secret: string) => Array.from({ length: secret.length - 7 }, (_, at) => secret.slice(at, at + 8));

t.test('every two-way split of every sample gives redactText of the whole', async (t) => {
  for (const { text, secret } of samples) {
    const whole = redactText(text);
    let failures = 0;
    for (let at = 0; at <= text.length; at++) {
      const { out } = stream([text.slice(0, at), text.slice(at)]);
      if (out !== whole || fragments(secret).some((fragment) => out.includes(fragment))) failures++;
    }
    t.equal(failures, 0, JSON.stringify(text.slice(0, 30)));
  }
});

t.test('random multi-way splits (property): the invariant holds and no 8-character fragment leaks', async (t) => {
  await fc.assert(
    fc.property(fc.constantFrom(...samples), fc.array(fc.nat(), { maxLength: 12 }), ({ text, secret }, cuts) => {
      const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
      const pieces = [...points, text.length].map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end));
      const { out } = stream(pieces);
      return out === redactText(text) && !fragments(secret).some((fragment) => out.includes(fragment));
    }),
    { numRuns: 2000 },
  );
  t.pass('held');
});

t.test('a credential in use split across pieces is redacted', async (t) => {
  const credential = 'plain-looking-credential-42';
  t.equal(stream(['it was plain-look', 'ing-credential-42!'], [credential]).out, 'it was [REDACTED]!');
});

t.test('prose with a credential in use whole, encoded or in pieces, split anywhere (property): emitted == redactText(raw)', async (t) => {
  const credential = 'Zq8nR2vT6yU1iO5pL9kJ3hG7fD4sA0mN';
  const words = [
    'the', 'run', 'of', 'Zq', 'Zq8nR', credential, credential.slice(0, 12), credential.slice(12), credential.slice(5, 14),
    Buffer.from(credential).toString('base64'), Buffer.from(`x${credential}`).toString('base64'), encodeURIComponent(`${credential}/=`), 'mN', 'a', 'sk-',
  ];
  // never glued to a word: one character of a credential glued to one is let go (docs/redaction.md)
  const glue = fc.constantFrom(' ', '\n', '"', '=', '/');
  await fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom(...words), glue), { minLength: 1, maxLength: 16 }), fc.array(fc.nat(), { maxLength: 16 }), (parts, cuts) => {
      const text = parts.map(([word, after]) => word + after).join('');
      const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
      const pieces = [...points, text.length].map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end));
      return stream(pieces, [credential]).out === redactText(text, { secrets: [credential] });
    }),
    { numRuns: 2000 },
  );
  t.pass('held');
});

t.test('ordinary text goes out at once, its last word too', async (t) => {
  const { each } = stream(['The tokenizer counts ', 'promptTokens in the task-list.']);
  t.same(each, ['The tokenizer counts ', 'promptTokens in the task-list.', '']);
});

t.test('one word a delta, as providers stream: each goes out as it comes, but for what could begin a secret', async (t) => {
  const redactor = createStreamRedactor();
  t.same(['quiet wor', 'dy', 'ness ', 'ok'].map((piece) => redactor.push(piece)), ['quiet wor', 'dy', 'ness ', 'ok']);
  // `a` may begin `AKIA…`, `key` a `key=` still being written, `s` an `sk-`
  t.same([' a', ' key', ' is', ' s', 'k-', 'proj-Q7xL1spNxnyVmihA_2O76UM', ' ok'].map((piece) => redactor.push(piece)), [
    ' ',
    'a ',
    'key is',
    ' ',
    '',
    '',
    '[REDACTED] ok',
  ]);
  t.equal(redactor.flush(), '');
  // a credential in use: a word's end that could begin a piece of it (or of its base64) waits for the next delta
  const credential = 'Zq8nR2vT6yU1iO5pL9kJ';
  t.same(stream([' say Zq8', 'nR2vT6yU1 now'], [credential]).each.slice(0, 1), [' say ']);
  t.equal(stream([' say Zq8', 'nR2vT6yU1 now'], [credential]).out, ' say [REDACTED] now');
  t.same(stream([' say hello', ' now'], [credential]).each.slice(0, 1), [' say hello']);
});

t.test('every split of prose ending in the beginning of a token, a header or a credential gives redactText of the whole', async (t) => {
  const credential = 'Zq8nR2vT6yU1iO5pL9kJ';
  const texts = [
    'a sk-proj-Q7xL1spNxnyVmihA_2O76UM, x',
    'use (ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8) now',
    'id AKIAIOSFODNN7EXAMPLE ok',
    'key sk_live_abcdefghijklmnop1234 ok',
    'k\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7x\n-----END RSA PRIVATE KEY-----\nok',
    `the key is ${credential.slice(0, 10)}${credential.slice(10)} ok`,
    'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig_abc ok',
  ];
  let failures = 0;
  for (const text of texts) {
    const whole = redactText(text, { secrets: [credential] });
    for (let first = 1; first < text.length; first++) {
      for (let second = first + 1; second <= text.length; second += 3) {
        const { out } = stream([text.slice(0, first), text.slice(first, second), text.slice(second)], [credential]);
        if (out !== whole) failures++;
      }
    }
  }
  t.equal(failures, 0);
});

t.test('prose naming keywords (`token`, `key`, `secret`, …) among assignments and headers, split anywhere (property): emitted == redactText(raw)', async (t) => {
  // most keywords are dead at once (`the token is`), some live (`token = …`), some decided a piece later
  const words = [
    'the', 'token', 'key', 'keys', 'password', 'secret', 'access', 'auth', 'author', 'cookie', '--cookie', 'Bearer', 'sig', 'bypass',
    'apiKey', 'AWS', 'Secret', 'Access', 'Key', 'is', 'x-api-key', 'Authorization', 'hunter2hunter2', 'Zq8nR2vT6yU1iO5pL9kJ3hG7',
    'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'sid=abcdef0123456789abcdef', '?token=abcdef0123456789', key,
  ];
  const glue = fc.constantFrom(' ', ' ', '', '\n', '=', ': ', ' = ', '"', '": "', '_', '-', '\\"', '     ');
  await fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom(...words), glue), { minLength: 1, maxLength: 30 }), fc.array(fc.nat(), { maxLength: 16 }), (parts, cuts) => {
      const text = parts.map(([word, after]) => word + after).join('');
      const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
      const pieces = [...points, text.length].map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end));
      return stream(pieces).out === redactText(text);
    }),
    { numRuns: 3000 },
  );
  t.pass('held');
});

t.test('flush releases everything, and a new run starts clean', async (t) => {
  const redactor = createStreamRedactor();
  t.equal(redactor.push('ghp_'), '');
  t.equal(redactor.flush(), 'ghp_');
  t.equal(redactor.push('hello '), 'hello ');
});

// The secret corpus (test/fixtures/secrets): every rule's synthetic secrets, in the contexts a model writes them.
const corpus = secretsCorpus(20261130, 2);

t.test('corpus: every split offset of each secret in context gives redactText of the whole, leaking nothing', async (t) => {
  let runs = 0;
  const failures: string[] = [];
  for (const { rule, secret, contexts } of corpus) {
    for (const text of contexts.slice(0, 3)) {
      const whole = redactText(text);
      for (let at = 0; at <= text.length; at++) {
        runs++;
        const { out } = stream([text.slice(0, at), text.slice(at)]);
        if (out !== whole || fragments(secret).some((fragment) => out.includes(fragment))) failures.push(`${rule} @${at}: ${JSON.stringify(text)}`);
      }
    }
  }
  t.same(failures.slice(0, 5), [], `${runs} two-way splits`);
});

t.test('corpus: random multi-way splits (property) of every context', async (t) => {
  const cases = corpus.flatMap(({ secret, contexts }) => contexts.map((text) => ({ text, secret })));
  await fc.assert(
    fc.property(fc.constantFrom(...cases), fc.array(fc.nat(), { minLength: 1, maxLength: 16 }), ({ text, secret }, cuts) => {
      const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
      const pieces = [...points, text.length].map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end));
      const { out } = stream(pieces);
      return out === redactText(text) && !fragments(secret).some((fragment) => out.includes(fragment));
    }),
    { numRuns: 3000 },
  );
  t.pass(`${cases.length} contexts`);
});

// Long runs without whitespace — compact JSON, base64, minified JS — as models write them, up to 20,000 characters.
const RUN_KINDS = {
  json: (n: number) => `{"c":"${'x'.repeat(n)}","n":12}`,
  base64: (n: number) => 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkrLw'.repeat(Math.ceil(n / 46)).slice(0, n),
  minifiedJs: (n: number) => 'function(a,b){return a.map(c=>c*b).filter(Boolean)};var d=[1,2,3];'.repeat(Math.ceil(n / 66)).slice(0, n),
} as const;
type RunKind = keyof typeof RUN_KINDS;

/** `text` cut at the given points (any order, duplicates and out-of-range ones folded in). */
function piecesOf(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => Math.min(Math.max(cut, 0), text.length)))].sort((a, b) => a - b);
  return [...points, text.length].map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end));
}

t.test('a secret told in prose glued to a long run without a blank, at every split', async (t) => {
  // found by the long-runs property above: the word up to a blank was longer than any word taken, so it went out
  const secret = 'O7kuOumqqC29DUHs_YlsQ12naIbI';
  for (const run of [RUN_KINDS.json(1025), RUN_KINDS.minifiedJs(1025)]) {
    const text = `${run},The database password is ${secret}.,${run}`;
    const failures: number[] = [];
    for (let at = 0; at <= text.length; at += at < run.length ? 97 : 1) {
      const { out } = stream([text.slice(0, at), text.slice(at)]);
      if (out !== redactText(text) || fragments(secret).some((fragment) => out.includes(fragment))) failures.push(at);
    }
    t.same(failures, [], run.slice(0, 12));
  }
});

t.test('the repro of issue 11: a key split after 1,100 characters of compact JSON, at every offset of the key', async (t) => {
  const secret = 'sk-proj-Q7xL1spNxnyVmihA_2O76UMFxFkM_R5Kjp1vRt';
  const text = `{"c":"${'x'.repeat(1100)}","key":"${secret}"}`;
  const start = text.indexOf(secret);
  const failures: number[] = [];
  for (let at = start; at <= start + secret.length; at++) {
    const { out } = stream([text.slice(0, at), text.slice(at)]);
    if (out !== redactText(text) || fragments(secret).some((fragment) => out.includes(fragment))) failures.push(at - start);
  }
  t.same(failures, [], 'every split offset');
  t.equal(redactText(text), `{"c":"${'x'.repeat(1100)}","key":"[REDACTED]"}`);
});

t.test('corpus × long runs (property): runs before, around and after each split secret; emitted == redactText(raw)', async (t) => {
  const cases = corpus.flatMap(({ secret, contexts }) => contexts.map((text) => ({ text, secret })));
  const length = fc.oneof(fc.constant(0), fc.integer({ min: 1000, max: 1100 }), fc.integer({ min: 0, max: 20_000 }));
  const glue = fc.constantFrom('', '\n', ' ', ',', '"');
  await fc.assert(
    fc.property(
      fc.constantFrom(...cases),
      fc.constantFrom(...(Object.keys(RUN_KINDS) as RunKind[])),
      fc.record({ before: length, after: length }),
      fc.tuple(glue, glue),
      fc.array(fc.integer({ min: -24, max: 160 }), { minLength: 1, maxLength: 6 }),
      fc.array(fc.nat(), { maxLength: 6 }),
      ({ text, secret }, kind, lengths, [glueBefore, glueAfter], nearSecret, anywhere) => {
        const before = RUN_KINDS[kind](lengths.before) + glueBefore;
        const whole = before + text + glueAfter + RUN_KINDS[kind](lengths.after);
        // most cuts land in and around the secret, the rest anywhere
        const secretAt = before.length + text.indexOf(secret);
        const cuts = [...nearSecret.map((offset) => secretAt + (offset % (secret.length + 24))), ...anywhere.map((cut) => cut % (whole.length + 1))];
        const { out } = stream(piecesOf(whole, cuts));
        return out === redactText(whole);
      },
    ),
    { numRuns: 400 },
  );
  t.pass(`${cases.length} contexts × ${Object.keys(RUN_KINDS).length} kinds of run`);
});

t.test('long runs: nothing of the secret leaks, whatever the split', async (t) => {
  const entries = secretsCorpus(7, 1);
  await fc.assert(
    fc.property(
      fc.constantFrom(...entries),
      fc.nat(),
      fc.constantFrom(...(Object.keys(RUN_KINDS) as RunKind[])),
      fc.integer({ min: 1025, max: 20_000 }),
      fc.array(fc.integer({ min: 0, max: 200 }), { minLength: 1, maxLength: 8 }),
      ({ secret, contexts }, pick, kind, runLength, nearSecret) => {
        const context = contexts[pick % contexts.length]!;
        const before = `${RUN_KINDS[kind](runLength)},`;
        const whole = `${before}${context},${RUN_KINDS[kind](runLength)}`;
        const secretAt = before.length + context.indexOf(secret);
        const { out } = stream(piecesOf(whole, nearSecret.map((offset) => secretAt + (offset % (secret.length + 8)))));
        return out === redactText(whole) && !fragments(secret).some((fragment) => out.includes(fragment));
      },
    ),
    { numRuns: 200 },
  );
  t.pass('held');
});

/** The pieces through a new redactor: what came out, the most it held after a piece, and the characters it looked at per character in. */
function measured(pieces: string[]): { out: string; mostHeld: number; scannedPerChar: number } {
  const redactor = createStreamRedactor();
  const before = charactersScanned();
  let mostHeld = 0;
  let out = '';
  for (const piece of pieces) {
    out += redactor.push(piece);
    mostHeld = Math.max(mostHeld, redactor.held);
  }
  out += redactor.flush();
  const input = pieces.reduce((sum, piece) => sum + piece.length, 0);
  return { out, mostHeld, scannedPerChar: (charactersScanned() - before) / input };
}

// Linear work is a few looks at each character (1 to 9 here, whatever the load); rescanning what is held at every
// delta is thousands of looks per character at these sizes, and more the longer the run.
const LINEAR = 20;

t.test('20,000 characters without whitespace, one character per delta, then a split key: linear, not quadratic', async (t) => {
  const key = 'sk-proj-Q7xL1spNxnyVmihA_2O76UMFxFkM_R5Kjp1vRt';
  for (const [name, run] of [
    ['no keyword', RUN_KINDS.base64(20_000)],
    ['an open token', `sk-proj-${'a'.repeat(20_000)}`],
    ['an open PEM block', `-----BEGIN PRIVATE KEY-----\n${RUN_KINDS.base64(20_000)}`],
  ] as const) {
    const text = `${run}","key":"${key}"} done`;
    const { out, scannedPerChar } = measured([...text]);
    t.equal(out, redactText(text), `${name}: the invariant holds`);
    t.ok(scannedPerChar < LINEAR, `${name}: ${scannedPerChar.toFixed(1)} characters looked at per character`);
  }
});

t.test('a run of capped matches, none a secret, closing one after another in small deltas: linear work', async (t) => {
  // each `key=` opens a value that the run goes on with; each outgrew its 4 KiB bound a few characters after the
  // one before, and closing it was a look at the whole hold at every delta: 2,600 characters looked at per character
  for (const unit of ['key=', 'ghp_']) {
    const text = `${unit.repeat(Math.ceil(24_000 / unit.length))} done`;
    const pieces = text.match(/[^]{1,7}/g)!;
    const { out, scannedPerChar, mostHeld } = measured(pieces);
    t.equal(out, redactText(text), `${unit}: the invariant holds`);
    t.ok(scannedPerChar < LINEAR, `${unit}: ${scannedPerChar.toFixed(1)} characters looked at per character`);
    t.ok(mostHeld <= 1.5 * (4096 + 256) + 7, `${unit}: held at most half the 4,352-character bound longer (${mostHeld})`);
  }
});

t.test('a long cookie list in deltas: no value of it shows, however far from its header', async (t) => {
  // past the list's 8 KiB hold bound its header left the window, and the values after it went out as they came
  const value = 'Zq8nR2vT6yU1iO5p';
  for (const pairs of [800, 4000]) {
    const text = `Cookie: a=1; ${`b=${value}; `.repeat(pairs)}end`;
    for (const size of [7, 100, 5000]) {
      const { out } = stream(text.match(new RegExp(`[^]{1,${size}}`, 'g'))!);
      t.notOk(out.includes(value.slice(0, 8)), `${text.length} characters in ${size}-character deltas: no value shows`);
      // within the list's bound (64 KiB) it reads as the whole text does; past it the rest of its line is one marker
      if (text.length < 64 * 1024) t.equal(out, redactText(text), `${text.length} characters in ${size}-character deltas`);
    }
  }
});

t.test('megabytes of a token-like run in 1,000-character deltas: the marker once, held no longer than its rule\'s bound, linear work', async (t) => {
  // An `N` in every delta: a private-key header (`-----BEGIN`) could end there, which once sliced the whole held run per delta.
  const body = 'NeyJhbGciOiJIUzI1NiJ9xYz_-Q'.repeat(38).slice(0, 1000);
  const alphanumeric = body.replace(/[_-]/g, 'x');
  const marker = body.slice(0, 12);
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.';
  // prefix, its delta, megabytes, the most held (docs/redaction.md), what comes out
  const cases: [string, string, number, number, string][] = [
    ['sk-', body, 2, 1024, 'the key: [REDACTED] done'],
    ['ghp_', alphanumeric, 2, 1024, 'the key: [REDACTED] done'],
    [jwt, body, 8, 32 * 1024, 'the key: [REDACTED] done'],
    ['Bearer ', body, 2, 4 * 1024 + 16, 'the key: Bearer [REDACTED] done'],
    ['token=', body, 2, 4 * 1024 + 256, 'the key: token=[REDACTED] done'],
  ];
  for (const [prefix, delta, megabytes, bound, expected] of cases) {
    const pieces = [`the key: ${prefix}`, ...Array.from({ length: megabytes * 1000 }, () => delta), ' done'];
    const { out, mostHeld, scannedPerChar } = measured(pieces);
    t.equal(out, expected, `${prefix} ${megabytes} MB: redacted as one secret`);
    t.equal(out, redactText(pieces.join('')), `${prefix}: as the whole text is redacted`);
    t.notOk(out.includes(marker.slice(0, 8)), `${prefix}: nothing of the run is released`);
    t.ok(mostHeld <= bound, `${prefix}: at most ${mostHeld} characters held (bound ${bound})`);
    t.ok(scannedPerChar < LINEAR, `${prefix}: ${scannedPerChar.toFixed(2)} characters looked at per character`);
  }
});

t.test('a long run no rule matches, held only for caution, goes out as it came once past the bound', async (t) => {
  // `AKIA` and capitals: held as a key id could be, but one is 20 characters then the run's end
  const delta = 'NEYJHBGCIOIJIUZI1NIJ9XYZQ'.repeat(40).slice(0, 1000);
  const pieces = ['the id: AKIA', ...Array.from({ length: 2000 }, () => delta), ' done'];
  const { out, mostHeld, scannedPerChar } = measured(pieces);
  t.equal(out, pieces.join(''), 'as the whole text is redacted: unchanged');
  t.ok(mostHeld <= 1024, `at most ${mostHeld} characters held`);
  t.ok(scannedPerChar < LINEAR, `${scannedPerChar.toFixed(2)} characters looked at per character`);
  // a password's value ends at the comma; the hold for a query parameter's would not
  const text = `DB_PASS=Y5dUbiilXj6yQC~cGm4NVwA,${RUN_KINDS.base64(5000)}`;
  t.equal(stream([text.slice(0, 8), text.slice(8)]).out, redactText(text));
});

t.test('a blob\'s run goes on in one-character deltas, then ends: swallowed in constant memory, what follows redacted as usual', async (t) => {
  const key = 'ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
  const pieces = ['see sk-', ...'Q7xL1spNxny'.repeat(500), `, then ${key} and password=hunter2hunter2 ok`];
  const { out, mostHeld } = measured(pieces);
  t.equal(out, 'see [REDACTED], then [REDACTED] and password=[REDACTED] ok');
  t.equal(out, redactText(pieces.join('')));
  t.ok(mostHeld <= 1024, `${mostHeld} held at most`);
});

t.test('after a long whitespace-free run: a Sentry DSN, a Slack webhook and encoded credentials in use, split three ways', async (t) => {
  const credential = 'zk4821Qm7TfRp2LxWc9VabcDEF123';
  const escaped = [...credential].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const before = `{"c":"${'x'.repeat(1100)}","v":"`;
  const secrets = [
    'https://0123456789abcdef0123456789abcdef@o123456.ingest.sentry.io/456',
    'https://0123456789abcdef0123456789abcdef:fedcba9876543210fedcba9876543210@sentry.example.com/4',
    'https://hooks.slack.com/services/T0123ABCD/B0123ABCD/abcdefghijklmnopqrstuvwx',
    credential,
    escaped,
    Buffer.from(credential).toString('base64'),
    encodeURIComponent(`${credential}/+`),
  ];
  for (const secret of secrets) {
    const text = `${before}${secret}"}`;
    const whole = redactText(text, { secrets: [credential] });
    let failures = 0;
    for (let at = before.length - 4; at < text.length; at++) {
      for (let second = at + 1; second < Math.min(text.length, at + 90); second += 7) {
        const { out } = stream([text.slice(0, at), text.slice(at, second), text.slice(second)], [credential]);
        if (out !== whole) failures++;
      }
    }
    t.equal(failures, 0, secret.slice(0, 40));
    t.notMatch(whole, /0123456789abcdef0123|abcdefghijklmnopqrstuvwx|zk4821Qm/, 'redacted in the whole text too');
  }
});

t.test('an escape released before a secret split off its keyword: the secret is redacted all the same', async (t) => {
  // redactText of context and piece decodes the released escape, so its output no longer begins with the context's
  for (const escape of ['&#115;', '\\u0073', '\\x73']) {
    const { out } = stream([`${escape}\tc`, 'ookie=wAKCAQEA']);
    t.equal(out, `${escape}\tcookie=[REDACTED]`, escape);
  }
  const { out } = stream(['say \\u0073 and the c', 'ookie=wAKCAQEA and the p', 'assword=hunter2hunter2 ok']);
  t.notOk(out.includes('wAKCAQEA') || out.includes('hunter2'), out);
});

t.test('a token glued to the end of a credential in use is held until it is whole', async (t) => {
  // redactText replaces the credential first, which puts the token at a token start (after the marker's `]`)
  const credential = 'Zq8nR2vT6yU1iO5pL9kJ3hG7fD4sA0mN';
  const pieces = [`${credential}sk-proj-Q7xL1spNxnyVm`, '__'];
  t.equal(stream(pieces, [credential]).out, '[REDACTED][REDACTED]');
  t.equal(stream(pieces, [credential]).out, redactText(pieces.join(''), { secrets: [credential] }));
  t.equal(stream([`${credential}s`, 'k-proj-Q7xL1spNxnyVm__'], [credential]).out, '[REDACTED][REDACTED]', 'a prefix begun right after it');
});

t.test('an escaped token at the end of a long run without spaces is held until it is whole', async (t) => {
  const pieces = [`${'x'.repeat(240)}:\\u0073k-proj-Q7xL1spNxnyV`, '6UM'];
  t.equal(stream(pieces).out, `${'x'.repeat(240)}:[REDACTED]`);
  t.equal(stream(pieces).out, redactText(pieces.join('')));
});

t.test('a value after an escaped sensitive name is held until it ends', async (t) => {
  const pieces = ['s_\\u0070ass :p', 'EY-----'];
  t.equal(stream(pieces).out, 's_pass :[REDACTED]');
  t.equal(stream(pieces).out, redactText(pieces.join('')));
});

/** Secret characters as `\u0073`, `\x73` or `&#115;`: the whole text is redacted decoded (escapes.ts). */
const escaped = (char: string, kind: number): string => {
  const code = char.charCodeAt(0);
  return [`\\u${code.toString(16).padStart(4, '0')}`, `\\x${code.toString(16).padStart(2, '0')}`, `&#${code};`][kind]!;
};

/** `shown` holds no 8-character piece of `secrets` that `whole` does not hold too. */
const noPieceShownBeyond = (shown: string, whole: string, secrets: readonly string[]): boolean =>
  secrets.every((secret) => fragments(secret).every((piece) => !shown.includes(piece) || whole.includes(piece)));

t.test('differential (property): secrets, escapes, keywords, spaces and prose, split at random, against redactText of the whole', async (t) => {
  const credential = 'Zq8nR2vT6yU1iO5pL9kJ3hG7fD4sA0mN';
  const tokens = secretsCorpus(99, 1).map(({ secret }) => secret).filter((secret) => secret.length < 400);
  // a credential in use never glued after a word: one character of it glued to one is let go (docs/redaction.md)
  const inUse = [credential, credential.slice(0, 12), credential.slice(12), Buffer.from(credential).toString('base64'), encodeURIComponent(`${credential}/=`)].map((form) => ` ${form}`);
  // other secrets that share a piece of it: the whole secret is redacted, as without it
  const sharing = [`sk-${credential.slice(4, 14)}ab12ab12ab12ab12`, `ghp_${credential.slice(0, 9)}abcdefabcdefabcdefabcdefabcdef0`, `key=x${credential.slice(20)}Q1`, `Bearer ${credential.slice(9, 18)}.x`];
  const words = ['the', 'key', 'token', 'password', 'pass', 'secret', 'Bearer', 'Authorization:', 'Cookie:', 'x-api-key', 'https://', 'user:', '@', 'sk-', 'ghp_', 'AKIA', 'eyJ', 'apiKey', 'DB_PASS', 's_', '-----BEGIN', 'PRIVATE KEY-----', '?token=', 'a', 's', 'is'];
  const withEscape = (text: string, at: number, kind: number): string => {
    const index = inUse.includes(text) ? 1 + (at % (text.length - 1)) : at % text.length;
    return /[A-Za-z0-9_.+/=:-]/.test(text[index]!) ? text.slice(0, index) + escaped(text[index]!, kind) + text.slice(index + 1) : text;
  };
  const atom = fc.oneof(
    fc.constantFrom(...words, ...tokens, ...inUse, ...sharing, '\\n', '\\u0073', '\\x73', '&#115;', '%0A', '\\"'),
    fc.tuple(fc.constantFrom(...words, ...tokens, ...inUse), fc.nat(), fc.nat(2)).map(([text, at, kind]) => withEscape(text, at, kind)),
    fc.integer({ min: 1, max: 400 }).map((length) => 'x'.repeat(length)),
  );
  const glue = fc.constantFrom(' ', '', '', '\n', '=', ': ', '"', '": "', '_', '-', ',', '     ', '/');
  const text = fc.array(fc.tuple(atom, glue), { minLength: 1, maxLength: 24 }).map((parts) => parts.map(([part, after]) => part + after).join(''));
  await fc.assert(
    fc.property(text, fc.array(fc.nat(), { maxLength: 16 }), fc.boolean(), (text, cuts, known) => {
      const secrets = known ? [credential] : [];
      const { out } = stream(piecesOf(text, cuts.map((cut) => cut % (text.length + 1))), secrets);
      const whole = redactText(text, { secrets });
      // Where a decoded secret shows, redactText decodes every escape of the text, and reads what precedes it
      // (released already) decoded: the stream may have redacted more there, never less. And where an escape
      // continues a token as written, redactText widens the marker over the run that follows, which the stream
      // may cut elsewhere (`_xxxx…` glued to a token's tail): then it shows no piece of a secret the whole hides.
      const [shown, wholeShown] = [decodeSecretEscapes(out), decodeSecretEscapes(whole)];
      return out === whole || noMoreShown(shown, wholeShown) || noPieceShownBeyond(shown, wholeShown, [...tokens, ...sharing, ...inUse.map((form) => form.trim())]);
    }),
    { seed: 20261206, numRuns: 2000 },
  );
  t.pass('held');
});

t.test('thousands of token prefixes in one run, none a token: closed together, in linear work, with no stack overflow', async (t) => {
  // each `ghp_` opens a capped match that outgrows its cap with no rule matching it; they closed in a recursion,
  // then in a loop that looked at the whole window again for each
  for (const text of [`see ${'ghp_'.repeat(4000)}`, 'TOKEN=x;'.repeat(4000), `${'ghp_'.repeat(4000)} ghp_${'a'.repeat(36)}`]) {
    const { out, scannedPerChar } = measured([text]);
    t.equal(out, redactText(text), text.slice(0, 12));
    t.ok(scannedPerChar < LINEAR, `${text.slice(0, 12)}: ${scannedPerChar.toFixed(1)} characters looked at per character`);
  }
});
