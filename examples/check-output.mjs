#!/usr/bin/env node
// Reads zero's stream-json output on stdin and checks every line against the
// shipped output schema, the way an editor extension would consume it:
//   zero exec -o stream-json --provider scripted --script examples/readme-demo.jsonl "Hi" | node examples/check-output.mjs
import { pipeline } from 'node:stream/promises';
import { split, parse, validate } from 'zero-stream';

const counts = {};
let exitCode;
await pipeline(
  process.stdin,
  split(),
  parse({ label: 'zero output' }),
  validate('output', { label: 'zero output' }),
  async function (events) {
    for await (const event of events) {
      counts[event.type] = (counts[event.type] ?? 0) + 1;
      if (event.type === 'run_end') exitCode = event.exitCode;
    }
  },
).catch((error) => {
  console.error(error.message);
  process.exit(1);
});
console.log(`valid: ${Object.entries(counts).map(([type, n]) => `${n} ${type}`).join(', ')}; run exit code ${exitCode}`);
