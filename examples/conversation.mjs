#!/usr/bin/env node
// A client of `zero exec --multi-turn --permission-prompt stdio`, the way an editor extension drives it: one
// process for the whole conversation, stdin and stdout open together. It sends a message, reads the events as
// they come, answers each permission_request, interrupts a turn that runs too long, and sends the next message
// when a turn ends. Offline, with the scripted provider (examples/conversation.jsonl):
//   node examples/conversation.mjs
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const zero = spawn(
  process.execPath,
  [`${repo}/bin/zero`, 'exec', '-i', 'stream-json', '-o', 'stream-json', '--multi-turn', '--permission-prompt', 'stdio', '--no-session',
    '--provider', 'scripted', '--script', `${repo}/examples/conversation.jsonl`, '-C', repo],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);

const send = (event) => zero.stdin.write(`${JSON.stringify({ schemaVersion: 2, ...event })}\n`);
const say = (content) => send({ type: 'message', role: 'user', content });

// What the user says next, turn after turn; after the last one, stdin is closed and zero ends the run.
const script = ['What is in examples/?', 'Write a note in NOTE.md.', 'Count to ten, slowly.', 'Stop.'];
let turn = 0;
let counted = 0;
say(script[turn++]);

for await (const line of createInterface({ input: zero.stdout })) {
  const event = JSON.parse(line);
  switch (event.type) {
    case 'turn_start':
      console.log(`> ${event.content}`);
      break;
    case 'text':
      process.stdout.write(event.delta);
      // the user loses patience: three numbers are enough
      if (event.delta.endsWith(', ') && ++counted === 3) send({ type: 'interrupt' });
      break;
    case 'tool_call':
      console.log(`\n  [tool] ${event.name} ${JSON.stringify(event.args)}`);
      break;
    case 'permission_request': {
      // a real client asks its user; this one says no to writing files
      const action = event.sideEffect === 'write' ? 'deny' : 'allow';
      console.log(`  [asked] ${event.name}: ${action}`);
      send({ type: 'permission_response', id: event.id, action });
      break;
    }
    case 'turn_end':
      console.log(`\n  [turn ${event.turn}: ${event.status}]`);
      if (turn < script.length) say(script[turn++]);
      else zero.stdin.end();
      break;
    case 'error':
      console.log(`  [error] ${event.message}`);
      break;
    case 'run_end':
      console.log(`[run ${event.status}, exit ${event.exitCode}]`);
      break;
  }
}
process.exitCode = await new Promise((resolve) => zero.on('close', resolve));
