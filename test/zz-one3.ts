import { createStreamRedactor } from '../lib/redaction/stream.js';
import { redactText } from '../lib/redaction/text.js';
const q = (n: number) => 'Qx7'.repeat(Math.ceil(n / 3)).slice(0, n);
const whole = 'aws_secret_access_key = ' + q(Number(process.argv[2])) + '-----BEGIN RSA PRIVATE KEY-----' + 'password';
const r = createStreamRedactor();
const outs = [...whole].map((c) => r.push(c)); outs.push(r.flush());
const got = outs.join(''); const want = redactText(whole);
console.log(got === want, JSON.stringify(outs.filter(Boolean).map((o) => o.length > 40 ? o.slice(0, 20) + '…' + o.slice(-20) : o)));
console.log(JSON.stringify(want.slice(0, 80)), want.length, got.length);
