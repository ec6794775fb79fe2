import fc from 'fast-check';
import { createStreamRedactor } from '../lib/redaction/stream.js';
import { redactText } from '../lib/redaction/text.js';
const VOCAB = ['password', 'db_password', 'apiKey', 'secret_access_key', 'aws_secret_access_key = ', '=', ':', ': ', ' ', '"', "'", '`', 'sk-', 'sk-proj-', 'ghp_', 'Bearer ', 'bearer', 'Authorization', 'x-api-key', 'https://', 'user:', '@', '?token=', '&sig=', 'Cookie: ', 'Set-Cookie:', 'sid=', '; ', ';', '\n', '\r\n', '-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', '-----BEGIN ', 'eyJ', '.', 'AKIA', '_live_', 'sk', 'SG.', 'xoxb-', 'glpat-', 'github_pat_', 'AIza', 'hf_', 'npm_', '-', '_', ',', '{', '}', '(', ')', 'token', 'tokens', '$TOKEN', 'process.env.X', '"correct horse battery"', 'AWS Secret Access Key [None]: ', 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789+/ab', 'x-goog-api-key', '--cookie ', '--password=', "'api_key' => '", 'eyJhbGciOiJIUzI1NiJ9', 'Basic ', 'plain-looking-credential-42', 'plain-look', '\\n', 'hooks', '://', 'postgres://', 'PRIVATE KEY', '-----END', '[REDACTED]', 'a.b.c', 'Zq8nR2vT6yU1iO5pL9kJ3hG7'];
const alnum = fc.string({ unit: fc.constantFrom(...'abcdefXYZ0123456789'), minLength: 1, maxLength: 60 });
const longRun = fc.integer({ min: 200, max: 3000 }).map((n) => 'Qx7'.repeat(Math.ceil(n / 3)).slice(0, n));
const part = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...VOCAB) }, { weight: 4, arbitrary: alnum }, { weight: 1, arbitrary: longRun });
function stream(pieces: string[], secrets?: string[]) { const r = createStreamRedactor({ secrets }); return [...pieces.map((p) => r.push(p)), r.flush()].join(''); }
let failures = 0;
fc.assert(fc.property(fc.array(part, { minLength: 1, maxLength: 25 }), fc.array(fc.nat(), { maxLength: 20 }), fc.boolean(), (parts, cuts, ones) => {
  const whole = parts.join('');
  let pieces: string[];
  if (ones && whole.length < 4000) pieces = [...whole];
  else {
    const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
    pieces = [...points, whole.length].map((end, i, all) => whole.slice(i === 0 ? 0 : all[i - 1], end));
  }
  const got = stream(pieces, ['plain-looking-credential-42']);
  const want = redactText(whole, { secrets: ['plain-looking-credential-42'] });
  return got === want;
}), { numRuns: Number(process.env.RUNS ?? 3000), seed: process.env.SEED ? Number(process.env.SEED) : undefined });
console.log('ok');
