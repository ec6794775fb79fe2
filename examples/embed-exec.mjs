#!/usr/bin/env node
// Runs the whole `zero exec` chain inside a Node program, with the offline
// scripted provider, and reads the events as objects instead of bytes:
//   node examples/embed-exec.mjs
import { fileURLToPath } from 'node:url';
import { execChain, loadScript, ScriptedProvider, split, parse } from 'zero-stream';

const repo = fileURLToPath(new URL('..', import.meta.url));
const provider = new ScriptedProvider(await loadScript(`${repo}/examples/readme-demo.jsonl`));
const chain = execChain({ provider, cwd: repo, input: { format: 'text', prompt: 'What is this repo?' }, output: { format: 'stream-json' } });

for await (const { value: event } of chain.pipe(split()).pipe(parse())) {
  if (event.type === 'tool_call') console.log(`tool  ${event.name} ${JSON.stringify(event.args)}`);
  if (event.type === 'final') console.log(`final ${event.text}`);
}
console.log(`exit  ${await chain.exitCode}`);
