import { holdFrom, pemStart, openMatchStart } from '../lib/redaction/hold.js';
const t = 'token ghp_a1B2c3';
console.log(holdFrom(t), pemStart(t), openMatchStart(t), holdFrom('{"apiKey": "Zq8'));
