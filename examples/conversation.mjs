#!/usr/bin/env node
// A client of `zero exec --multi-turn --permission-prompt stdio`, the way an editor extension drives it: one
// process for the whole conversation, stdin and stdout open together. Three turns: a write inside the directory
// (--auto low allows it, and says so), a command it denies, and one it approves and then interrupts once it runs;
// then it closes stdin and prints the transcript. With --sandbox off every command is asked for (in the sandbox,
// --auto low would allow them too).
// Offline, with the scripted provider (examples/conversation.jsonl), in a directory of its own:
//   node examples/conversation.mjs [DIR]      (default: a new temporary directory)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dir = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'zero-conversation-'));
writeFileSync(join(dir, 'README.md'), 'keep me\n');
const zero = spawn(
  process.execPath,
  [join(repo, 'bin/zero'), 'exec', '-i', 'stream-json', '-o', 'stream-json', '--multi-turn', '--permission-prompt', 'stdio', '--sandbox', 'off', '--no-session',
    '--provider', 'scripted', '--script', join(repo, 'examples/conversation.jsonl'), '-C', dir],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);

const send = (event) => zero.stdin.write(`${JSON.stringify({ schemaVersion: 2, ...event })}\n`);
const transcript = [];
const note = (line) => transcript.push(line);

// What the user says, turn after turn, and how they answer each permission_request of that turn.
const turns = [
  { say: 'Write "Remember the milk." in NOTE.md.', answer: () => ({ decision: 'allow' }) },
  { say: 'Now delete the README.', answer: () => ({ decision: 'deny', reason: 'keep the README' }) },
  { say: 'Run the build.', answer: () => ({ decision: 'allow' }) },
];
let turn = 0;
send({ type: 'message', role: 'user', content: turns[turn].say });

/** The build runs too long: once its shell is up (it writes its pid), the user interrupts the turn. */
async function interruptOnceRunning() {
  const pidFile = join(dir, 'build.pid');
  while (!existsSync(pidFile) || !/^\d+\s*$/.test(readFileSync(pidFile, 'utf8'))) await sleep(20);
  note(`  [interrupt] the command runs as pid ${readFileSync(pidFile, 'utf8').trim()}`);
  send({ type: 'interrupt' });
}

let text = '';
for await (const line of createInterface({ input: zero.stdout })) {
  const event = JSON.parse(line);
  if (event.type !== 'text' && text) {
    note(`  ${text}`);
    text = '';
  }
  switch (event.type) {
    case 'turn_start':
      note(`> ${event.content}`);
      break;
    case 'text':
      text += event.delta;
      break;
    case 'tool_call':
      note(`  [tool] ${event.name} ${JSON.stringify(event.args)}`);
      break;
    case 'permission_request': {
      const answer = turns[turn].answer(event);
      note(`  [asked] ${event.name}: ${answer.decision}`);
      send({ type: 'permission_response', id: event.id, ...answer });
      if (event.name === 'bash' && answer.decision === 'allow') void interruptOnceRunning();
      break;
    }
    case 'permission_decision':
      // an answer of ours is noted with its request; this one was --auto low's own
      if (event.decisionReason.startsWith('Auto-allowed')) note(`  [auto] ${event.name}: ${event.decisionReason}`);
      break;
    case 'tool_result':
      note(`  [result] ${event.status}: ${event.output.split('\n')[0]}`);
      break;
    case 'turn_end':
      note(`  [turn ${event.turn}: ${event.status}]`);
      if (++turn < turns.length) send({ type: 'message', role: 'user', content: turns[turn].say });
      else zero.stdin.end();
      break;
    case 'error':
      note(`  [error] ${event.message}`);
      break;
    case 'run_end':
      note(`[run ${event.status}, exit ${event.exitCode}]`);
      break;
  }
}
const code = await new Promise((resolve) => zero.on('close', resolve));
console.log(transcript.join('\n'));
process.exitCode = code;
