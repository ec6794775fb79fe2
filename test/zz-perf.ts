import { createStreamRedactor } from '../lib/redaction/stream.js';
import { redactText } from '../lib/redaction/text.js';
function time(name: string, whole: string, size = 1) {
  const t0 = performance.now();
  const r = createStreamRedactor();
  let out = '';
  for (let i = 0; i < whole.length; i += size) out += r.push(whole.slice(i, i + size));
  out += r.flush();
  const ms = performance.now() - t0;
  console.log(name, whole.length, ms.toFixed(0) + 'ms', out === redactText(whole));
}
const run = (n: number) => 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3ODkrLw'.repeat(Math.ceil(n / 46)).slice(0, n);
time('plain 20k', run(20000));
time('plain 80k', run(80000));
time('json 20k keys', '{"max_tokens":1,"apiKey":"x","c":"' + 'x'.repeat(20000) + '"}');
time('open token 20k', 'key sk-proj-' + 'a'.repeat(20000) + ' done');
time('open token 80k', 'key sk-proj-' + 'a'.repeat(80000) + ' done');
time('jwt 20k', 'eyJhbGciOiJIUzI1NiJ9.' + 'a'.repeat(20000) + '.sig');
time('pem 60k', '-----BEGIN RSA PRIVATE KEY-----\n' + 'QUJD\n'.repeat(12000) + '-----END RSA PRIVATE KEY-----\nafter');
time('assign 20k', 'password=' + 'a'.repeat(20000) + ' next');
time('prose 100k', 'The tokenizer counts promptTokens; the password: is asked. '.repeat(2000));
time('minjs 100k', 'function(a,b){return a.token.map(c=>c*b).filter(Boolean)};var key=[1,2,3];'.repeat(1400));
