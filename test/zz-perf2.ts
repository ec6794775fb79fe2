import { createStreamRedactor } from '../lib/redaction/stream.js';
const whole = 'The tokenizer counts promptTokens; the password: is asked. '.repeat(2000);
const r = createStreamRedactor();
const t0 = performance.now();
for (const c of whole) r.push(c);
r.flush();
console.log(performance.now() - t0);
