import fc from 'fast-check';
import { createStreamRedactor } from '../lib/redaction/stream.js';
import { redactText } from '../lib/redaction/text.js';
import { secretsCorpus } from './fixtures/secrets/corpus.js';
const corpus = secretsCorpus(Number(process.env.SEED ?? 99), 2);
const cases = corpus.flatMap(({ secret, contexts }) => contexts.map((text) => ({ text, secret })));
const RUNS = [
  (n: number) => `{"c":"${'x'.repeat(n)}","n":12}`,
  (n: number) => 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkrLw'.repeat(Math.ceil(n / 46)).slice(0, n),
  (n: number) => 'function(a,b){return a.map(c=>c*b).filter(Boolean)};var d=[1,2,3];'.repeat(Math.ceil(n / 66)).slice(0, n),
  (n: number) => 'abcXYZ019_-'.repeat(Math.ceil(n / 11)).slice(0, n),
  (n: number) => '{"token_count":12,"apiKey":"abc","x":"' + 'y'.repeat(n) + '"}',
];
function stream(pieces: string[]) { const r = createStreamRedactor(); return [...pieces.map((p) => r.push(p)), r.flush()].join(''); }
let n = 0;
fc.assert(fc.property(fc.constantFrom(...cases), fc.nat(RUNS.length - 1), fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 3000 }), fc.constantFrom('', '\n', ' ', ',', '"', '=', ':', '.', '-', '/'), fc.constantFrom('', '\n', ' ', ',', '"', '=', 'x', 'A'), fc.array(fc.nat(), { maxLength: 30 }), fc.boolean(),
  ({ text, secret }, kind, b, a, g1, g2, cuts, small) => {
    const whole = RUNS[kind](b) + g1 + text + g2 + RUNS[kind](a);
    let points: number[];
    if (small) { const s = whole.indexOf(secret); points = cuts.map((c) => s - 40 + (c % (secret.length + 80))); }
    else points = cuts.map((c) => c % (whole.length + 1));
    points = [...new Set(points.map((p) => Math.max(0, Math.min(p, whole.length))))].sort((x, y) => x - y);
    const pieces = [...points, whole.length].map((end, i, all) => whole.slice(i === 0 ? 0 : all[i - 1], end));
    n++;
    return stream(pieces) === redactText(whole);
  }), { numRuns: Number(process.env.RUNS ?? 3000) });
console.log('ok', n);
