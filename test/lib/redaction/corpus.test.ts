import t from 'tap';
import { TEXT_RULES, redactText } from '../../../lib/redaction/text.js';
import { CORPUS_RULES, contexts, escapedContexts, keyedContexts, secretsCorpus } from '../../fixtures/secrets/corpus.js';

/** Every 8-character substring of the secret that survives in `text`. */
function leakedFragments(secret: string, text: string): string[] {
  const leaked: string[] = [];
  for (let at = 0; at + 8 <= secret.length; at++) {
    const fragment = secret.slice(at, at + 8);
    if (text.includes(fragment)) leaked.push(fragment);
  }
  return leaked;
}

const corpus = secretsCorpus();

t.test('the leak check finds any surviving 8-character fragment', async (t) => {
  t.same(leakedFragments('abcdefghij', 'x cdefghij y'), ['cdefghij']);
  t.same(leakedFragments('abcdefghij', 'x abcdefg [REDACTED] y'), []);
  t.same(leakedFragments('short', 'short'), [], 'nothing to check under 8 characters');
});

t.test('the corpus covers every rule, several secrets each', async (t) => {
  t.same([...CORPUS_RULES].sort(), TEXT_RULES.map((rule) => rule.name).sort());
  for (const rule of CORPUS_RULES) t.ok(corpus.filter((entry) => entry.rule === rule).length >= 3, rule);
});

t.test('the corpus is generated, repeatably', async (t) => {
  t.same(secretsCorpus(), corpus, 'same seed, same corpus');
  t.not(secretsCorpus(7)[0].secret, corpus[0].secret, 'another seed, other secrets');
  t.equal(contexts('S3cr3tVal').length, 15);
  t.ok(keyedContexts('S3cr3tVal').length < contexts('S3cr3tVal').length);
  for (const text of contexts('S3cr3tVal')) t.ok(text.includes('S3cr3tVal'), text);
});

t.test('every context of every corpus secret is redacted, idempotently', async (t) => {
  let checked = 0;
  const failures: string[] = [];
  for (const { rule, secret, contexts: texts } of corpus) {
    for (const text of texts) {
      const once = redactText(text);
      const leaked = leakedFragments(secret, once);
      if (leaked.length > 0) failures.push(`${rule}: ${JSON.stringify(once)} leaks ${JSON.stringify(leaked[0])}`);
      if (redactText(once) !== once) failures.push(`${rule}: not idempotent on ${JSON.stringify(text)}`);
      if (!once.includes('[REDACTED]')) failures.push(`${rule}: no marker in ${JSON.stringify(once)}`);
      checked++;
    }
  }
  t.same(failures, [], `${checked} contexts, 100% redacted`);
  t.ok(checked > 500);
});

t.test('self-identifying secrets written with escapes (JSON \\u, HTML entities) are redacted too', async (t) => {
  const failures: string[] = [];
  const selfIdentifying = corpus.filter(({ secret, contexts: texts }) => texts[0] === contexts(secret)[0] && texts.length === contexts(secret).length);
  for (const { rule, secret } of selfIdentifying) {
    for (const text of escapedContexts(secret)) {
      const once = redactText(text);
      if (leakedFragments(secret.slice(1), once).length > 0 || !once.includes('[REDACTED]')) failures.push(`${rule}: ${JSON.stringify(once)}`);
    }
  }
  t.same(failures, []);
  t.ok(selfIdentifying.length > 50);
});
