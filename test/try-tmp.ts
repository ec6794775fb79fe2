import { zeroHere } from './helpers/cli.js';
const args = process.argv.slice(2);
const r = await zeroHere(args);
process.stdout.write(r.stdout);
process.stderr.write(`--- stderr:\n${r.stderr}--- code ${r.code}\n`);
