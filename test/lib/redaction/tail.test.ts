import t from 'tap';
import { heldTailLength, holdFrom, tailStart } from '../../../lib/redaction/tail.js';
import { knownForms } from '../../../lib/redaction/known.js';

t.test('holdFrom: what could still grow into a secret', async (t) => {
  t.equal(holdFrom('plain words and sk-pro'), 'plain words and '.length, 'the trailing run');
  t.equal(holdFrom('ends with a space '), 'ends with a space '.length, 'nothing to hold');
  t.equal(holdFrom('set password = '), 'set '.length, 'a sensitive key waiting for its value');
  t.equal(holdFrom('-H "Authorization: Bearer '), '-H "'.length, 'a header and its scheme');
  t.equal(holdFrom('{"apiKey": "Zq8'), '{"api'.length, 'a value still arriving: from its keyword (the name before it stays in view)');
  t.equal(holdFrom('the token was'), 'the token was'.length, 'a key without an assignment is just a word');
  t.equal(holdFrom('the token is valid. '), 'the token is valid. '.length, 'nor is one told in prose once its value ended');
  t.equal(holdFrom('x\n-----BEGIN RSA PRIVATE KEY-----\nMIIE abc'), 2, 'an open PEM block');
  t.equal(holdFrom('Cookie: a=1; b=2; '), 0, 'a cookie header line');
  const long = 'z'.repeat(20_000);
  const heldOf = (text: string) => text.slice(holdFrom(text));
  t.equal(heldOf(`a ${long}`), '', 'a long run with no keyword: nothing');
  t.equal(heldOf(`a ${long}-s`), 's', 'but for the beginning of a token at its end');
  t.equal(heldOf(`a ${long}","key":"sk-proj-Q7xL1spNxnyVmihA`), 'sk-proj-Q7xL1spNxnyVmihA', 'a long run: from where an open token begins');
  t.equal(heldOf(`a ${long}","apiKey":"Zq8nR2vT6`), 'Key":"Zq8nR2vT6', 'a sensitive name whose value is still arriving');
  t.equal(heldOf(`${long},"password": "correct horse`), 'password": "correct horse', 'a quoted value with spaces, still open');
  const closed = `${long},"sk-proj-Q7xL0123456789abcdefgh","n":1`;
  t.equal(heldOf(closed), '', 'a closed match holds nothing');
  t.equal(heldOf(`x${long}\n-----BEGIN RSA PRIVATE KEY-----\n${'QUJD'.repeat(10_000)}`).length, 40_000 + 32, 'an open PEM block, however long its body so far');
});

t.test('a token right after an escape (`\\n`, `%0A`) is held from its prefix, like one after a space', async (t) => {
  const long = '{"a":"x\\n"},'.repeat(2000);
  for (const escape of ['\\n', '%0A', '\\u003c']) {
    const text = `${long}${escape}sk-proj-Q7xL1spNxny`;
    t.equal(text.slice(holdFrom(text)), 'sk-proj-Q7xL1spNxny', escape);
  }
});

t.test('tailStart: a word goes at once unless its end could begin a secret', async (t) => {
  const heldOf = (text: string, secrets: string[] = []) => text.slice(tailStart(text, { secrets, forms: knownForms(secrets), longest: 6 * Math.max(0, ...secrets.map((secret) => secret.length)) }));
  for (const word of ['the', 'next', 'wordax0x', 'task-list.', 'tokens', 'password', 'is']) t.equal(heldOf(`say ${word}`), '', `${word}: nothing held`);
  for (const start of ['s', 'sk', 'gh', 'github_pa', 'ey', 'AKI', 'a', 'xo', 'rk_liv', 'np']) t.equal(heldOf(`say ${start}`), start, `${start}: the beginning of a token`);
  t.equal(heldOf('say (sk'), 'sk', 'after punctuation, a token start');
  t.equal(heldOf('say x_s'), 's', 'after an underscore, a token start');
  t.equal(heldOf('say ask'), '', 'inside a word, no token starts');
  t.equal(heldOf('say %0Ask'), 'sk', 'after a URL-encoded character, a token start');
  t.equal(heldOf('say x0Ask'), '', 'not after the same letters without the %');
  t.equal(heldOf('say Gh'), 'Gh', 'any case');
  t.equal(heldOf('a\\nsk'), 'a\\nsk', 'a run with an escape: held whole, as an escaped key is found only decoded');
  const run = 'Zq8nR2vT6yU1iO5pL9kJ'.repeat(30);
  t.equal(heldOf(`a\\u0073${run}`).length, 16, 'a long run with an escape at its very beginning: its last 16 characters, as any long escaped run');
  t.equal(heldOf(`a\\u0073 ${run}`), '', 'an escape before the run is no escape in it');
  t.equal(heldOf(`a&amp; ${run}(sk`), 'sk', 'nor an entity: the run ends as any other');
  t.equal(heldOf(`${run}&${run}`).length, 16, 'an entity in the middle of a long run');
  const escapedRun = (length: number) => `\\u0073${'x'.repeat(length - 6)}`;
  t.equal(heldOf(`say ${escapedRun(256)}`), escapedRun(256), 'an escaped run of 256 characters: held whole');
  t.equal(heldOf(`say ${escapedRun(257)}`).length, 16, 'one of 257: its last 16, as any longer one');
  t.equal(heldOf(`${run}\\u0073\u2028${run}`), '', 'a line separator after the escape ends the run before it');
  t.equal(heldOf('key:\n-----BEG'), '-----BEG', 'the beginning of a private-key header, wherever it is');
  t.equal(heldOf('see Zq8nR2', ['Zq8nR2vT6yU1iO5pL9kJ']), 'Zq8nR2', 'a piece of a credential in use');
  t.equal(heldOf('see vT6', ['Zq8nR2vT6yU1iO5pL9kJ']), 'vT6', 'from anywhere in it');
  t.equal(heldOf('see vTx', ['Zq8nR2vT6yU1iO5pL9kJ']), '', 'not what it does not hold');
  t.equal(heldOf('see wordv', ['Zq8nR2vT6yU1iO5pL9kJ']), '', 'not one character of it glued to a word');
  t.equal(heldOf('see (v', ['Zq8nR2vT6yU1iO5pL9kJ']), 'v', 'but one at a token start');
  t.equal(heldOf('see WnE4', ['Zq8nR2vT6yU1iO5pL9kJ']), 'WnE4', 'the beginning of its base64 form');
});

t.test('holdFrom: what the rules read decoded, or with a credential in use replaced, is held too', async (t) => {
  const long = 'x'.repeat(300);
  const escaped = `${long}:\\u0073k-proj-Q7xL1spNxnyV`;
  t.equal(escaped.slice(holdFrom(escaped)), '\\u0073k-proj-Q7xL1spNxnyV', 'an escaped token in a long run: from its escape');
  t.equal(holdFrom('s_\\u0070ass :q'), 's_'.length, 'a value after an escaped sensitive name: from the name\'s keyword');
  t.equal(holdFrom('SG.M8oUstVdF\\u006'), 0, 'a token whose next escape is still arriving');
  const credential = 'Zq8nR2vT6yU1iO5pL9kJ3hG7fD4sA0mN';
  const glued = `${credential}sk-proj-Q7xL1spNxnyVm`;
  const credentials = { secrets: [credential], forms: knownForms([credential]), longest: 6 * credential.length };
  t.equal(holdFrom(glued, true, credentials), credential.length, 'a token glued to a credential: from its prefix');
  t.equal(holdFrom(glued), glued.length, 'not when that credential is not in use');
});

t.test('heldTailLength: what tailStart holds of a text after the characters before it, read only when they can tell', async (t) => {
  const asked: number[] = [];
  const after = (before: string) => (count: number) => {
    asked.push(count);
    return before.slice(-count);
  };
  t.equal(heldTailLength('say s', undefined, after('xy')), 1, 'a token beginning after a space');
  t.same(asked, [], 'a space in the text: what comes before it is not read');
  t.equal(heldTailLength('sk', undefined, after('word ')), 2, 'a token beginning at the start, after a space');
  t.equal(heldTailLength('sk', undefined, after('a%0A')), 2, 'after a URL-encoded character');
  t.equal(heldTailLength('sk', undefined, after('ta')), 0, 'inside a word: no token starts there');
  t.equal(heldTailLength('EG', undefined, after('x -----B')), 2, 'a private-key header begun before it');
  t.equal(heldTailLength('sk', undefined), 2, 'nothing before: a token start');
  t.equal(heldTailLength('words ', undefined, after('x')), 0, 'a text that ends in a space holds nothing');
  // the same as tailStart over the characters before it and the text, for random texts of the characters that matter
  const alphabet = ' ska-_\\u0%&Bx-EGIN';
  let seed = 29;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const word = (length: number) => Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  for (let round = 0; round < 2000; round++) {
    const before = word(Math.floor(random() * 10));
    const text = word(1 + Math.floor(random() * 12));
    const seen = before.slice(-6) + text;
    const whole = Math.min(text.length, seen.length - tailStart(seen));
    if (heldTailLength(text, undefined, after(before)) !== whole) t.fail(`${JSON.stringify(before)} + ${JSON.stringify(text)}: not ${whole}`);
  }
  t.pass('2000 random texts');
});

t.test('tailStart with credentials in use: what a plain search of the values and their forms holds', async (t) => {
  const secrets = ['sk-proj-Zq8nR2vT6yU1iO5pL9kJ3hG7fD4sA0mNbVcXzQw', 'p@ss w%rd/12345', 'ümlaut-ßecret-99'];
  const forms = knownForms(secrets);
  const credentials = { secrets, forms, longest: 6 * Math.max(...secrets.map((secret) => secret.length)) };
  /** How many of the last characters are a piece of a value (but one glued to a word) or begin a form. */
  const plainHold = (text: string): number => {
    let piece = 0;
    while (piece < text.length && secrets.some((secret) => secret.includes(text.slice(text.length - piece - 1)))) piece++;
    if (piece === 1 && /[\w.-]/.test(text.charAt(text.length - 2))) piece = 0;
    const longest = Math.max(...forms.map((form) => form.length));
    for (let length = Math.min(text.length, longest - 1); length > piece; length--) {
      if (forms.some((form) => text.startsWith(form.slice(0, length), text.length - length))) return length;
    }
    return piece;
  };
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = (list: readonly string[] | string): string => list[Math.floor(random() * list.length)]!;
  const part = (text: string) => text.slice(Math.floor(random() * text.length), Math.floor(random() * (text.length + 1)));
  let differ = 0;
  for (let round = 0; round < 3000; round++) {
    // no escape (`\\`, `&`): tailStart then holds the longest of the token, header and credential ends
    let text = '';
    for (let parts = Math.floor(random() * 8); parts > 0; parts--) text += random() < 0.5 ? part(pick(secrets)) : pick('ab c2stcHJv%40 wrd/ü');
    if (random() < 0.5) text += pick(forms).slice(0, Math.floor(random() * 40));
    if (tailStart(text, credentials) !== Math.min(tailStart(text), text.length - plainHold(text))) differ++;
  }
  t.equal(differ, 0, '3000 random ends');
  const heldOf = (text: string) => text.slice(tailStart(text, credentials));
  t.equal(heldOf('word sk-proj-Zq8'), 'sk-proj-Zq8', 'the beginning of a value');
  t.equal(heldOf('see c2stcHJva'), 'c2stcHJva', 'of its base64 form');
  t.equal(heldOf('see p%40ss%2'), 'p%40ss%2', 'of its URL-encoded form');
  t.equal(heldOf('a piece: nR2vT6yU'), 'nR2vT6yU', 'a piece from its middle');
  t.equal(heldOf('see ßecr'), 'ßecr', 'past ASCII');
});

t.test('heldTailLength with credentials in use: the same as tailStart after the characters before, which a space in the text makes unread unless a value holds one', async (t) => {
  const spaceless = ['sk-proj-Zq8nR2vT6yU1iO5pL9kJ3hG7fD4sA0mNbVcXzQw'];
  const spaced = ['p@ss w%rd/12345'];
  let seed = 11;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = (list: readonly string[] | string): string => list[Math.floor(random() * list.length)]!;
  const part = (text: string) => text.slice(Math.floor(random() * text.length), Math.floor(random() * (text.length + 1)));
  for (const secrets of [spaceless, spaced]) {
    const forms = knownForms(secrets);
    const credentials = { secrets, forms, longest: 6 * Math.max(...secrets.map((secret) => secret.length)) };
    let differ = 0;
    let unread = 0;
    for (let round = 0; round < 2000; round++) {
      const piece = () => (random() < 0.5 ? part(pick(secrets)) : random() < 0.5 ? part(pick(forms)) : pick(['a', ' ', 'sk', 'c', '\\u', ' w', 's ']));
      let before = '';
      for (let parts = Math.floor(random() * 4); parts > 0; parts--) before += piece();
      let text = '';
      while (text === '') for (let parts = 1 + Math.floor(random() * 5); parts > 0; parts--) text += piece();
      const seen = before.slice(-6) + text;
      const whole = Math.min(text.length, seen.length - tailStart(seen, credentials));
      let read = false;
      const held = heldTailLength(text, credentials, (count) => {
        read = true;
        return before.slice(-count);
      });
      if (held !== whole) differ++;
      if (!read) unread++;
    }
    t.equal(differ, 0, `${secrets === spaced ? 'a value with a space' : 'no value with a space'}: 2000 random texts, what the whole holds`);
    if (secrets === spaceless) t.ok(unread > 500, `the characters before unread for texts with a space (${unread} of 2000)`);
    else t.equal(unread, 0, 'a value with a space: the characters before always read');
  }
});
