import { createStreamRedactor } from '../lib/redaction/stream.js';
import { redactText } from '../lib/redaction/text.js';
const whole = process.argv[2]!.replace(/\\n/g, '\n');
const r = createStreamRedactor();
const outs = [...whole].map((c) => r.push(c)); outs.push(r.flush());
console.log(JSON.stringify(outs.filter(Boolean)));
console.log(JSON.stringify(redactText(whole)));
