import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zeroHere } from '../../helpers/cli.js';
import { converse, kinds, oneAfterAnother, say, scripted, turnText } from '../../helpers/conversation.js';
import { jsonLines, writeScript } from '../../helpers/zero.js';
import { isRunning, waitForPid } from '../../helpers/processes.js';

// zero exec --multi-turn driven the way a client drives it: stdin and stdout open together, each event read as it
// arrives and answered (the next message, an interrupt, a permission_response); every output is a valid log.
// A conversation is bin/zero spawned, its stdin a pipe written over time; a run with all its input at once is in-process.

t.test('two turns in one run: the second request holds the first exchange; turn_start and turn_end frame each', async (t) => {
  const run = scripted(t, [{ chunks: ['Paris ', 'is the capital.'] }, { expect: { contains: ['capital of France?', 'Paris is the capital.', 'And of Italy?'] }, text: 'Rome.' }]);
  const { start, onEvent } = oneAfterAnother(['What is the capital of France?', 'And of Italy?']);
  const result = await converse(run.args(), start, onEvent, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.same(kinds(result.events), ['run_start', 'turn_start', 'text', 'final', 'turn_end', 'turn_start', 'text', 'final', 'turn_end', 'run_end']);
  t.match(result.events[1], { type: 'turn_start', turn: 1, content: 'What is the capital of France?' });
  t.match(result.events.filter((event) => event.type === 'turn_end'), [{ turn: 1, status: 'success' }, { turn: 2, status: 'success' }]);
  t.equal(turnText(result.events, 2), 'Rome.');
  t.equal(result.stderr, '');
});

t.test('messages sent at once are queued and answered in order; stdin closing ends the run after the last', async (t) => {
  const run = scripted(t, [{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
  const result = await converse(run.args(), (client) => {
    for (const content of ['a', 'b', 'c']) client.send(say(content));
    client.end();
  }, undefined, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.same(result.events.filter((event) => event.type === 'final').map((event) => event.text), ['one', 'two', 'three']);
  t.same(result.events.filter((event) => event.type === 'turn_start').map((event) => event.content), ['a', 'b', 'c']);
});

t.test('a second message sent while the first turn streams waits for it: the first answer is whole, then the second turn', async (t) => {
  const run = scripted(t, [{ delayMs: 20, chunks: ['one ', 'two ', 'three.'] }, { expect: { contains: ['one two three.', 'second'] }, text: 'Answered second.' }]);
  let sent = false;
  const result = await converse(run.args(), (client) => client.send(say('first')), (event, client) => {
    if (event.type === 'text' && !sent) {
      sent = true;
      client.send(say('second'));
      client.end();
    }
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.equal(turnText(result.events, 1), 'one two three.');
  t.same(kinds(result.events), ['run_start', 'turn_start', 'text', 'final', 'turn_end', 'turn_start', 'text', 'final', 'turn_end', 'run_end']);
});

t.test('a message sent as soon as final is read (before turn_end) is the next turn', async (t) => {
  const run = scripted(t, [{ text: 'First.' }, { expect: { contains: ['First.', 'again'] }, text: 'Second.' }]);
  const result = await converse(run.args(), (client) => client.send(say('once')), (event, client) => {
    if (event.type === 'final' && event.text === 'First.') {
      client.send(say('again'));
      client.end();
    }
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.match(result.events.filter((event) => event.type === 'turn_end'), [{ turn: 1, status: 'success' }, { turn: 2, status: 'success' }]);
  t.equal(turnText(result.events, 2), 'Second.');
});

t.test('interrupt mid-stream: the turn ends interrupted with what it streamed, the next turn runs and the model sees the partial answer', async (t) => {
  const run = scripted(t, [{ delayMs: 200, chunks: ['Counting: ', 'one, ', 'two, ', 'three, ', 'four, ', 'five.'] }, { expect: { contains: ['Counting:'] }, text: 'Stopped, as asked.' }]);
  let interrupted = false;
  const result = await converse(run.args(), (client) => client.send(say('Count to five slowly.')), (event, client) => {
    if (event.type === 'text' && !interrupted) {
      interrupted = true;
      client.send({ type: 'interrupt' });
    }
    if (event.type === 'turn_end' && event.turn === 1) client.send(say('Why did you stop?'));
    if (event.type === 'turn_end' && event.turn === 2) client.end();
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.match(result.events.filter((event) => event.type === 'turn_end'), [{ turn: 1, status: 'interrupted' }, { turn: 2, status: 'success' }]);
  t.notOk(turnText(result.events, 1).includes('five'), 'the interrupted turn stopped streaming');
  t.equal(result.events.filter((event) => event.type === 'final').length, 1, 'an interrupted turn has no final');
  t.equal(turnText(result.events, 2), 'Stopped, as asked.');
  t.equal(result.events.at(-1)?.type, 'run_end');
});

/** The commands below record their pid for the test to check on the host: unconfined, as pids in a sandbox are its own. */
const UNCONFINED = ['--sandbox', 'off'];

t.test('interrupt while a command runs: its process group is killed, its result says so, the conversation goes on', async (t) => {
  const bash = { id: 'b1', name: 'bash', args: { command: 'echo $$ > child.pid; sleep 1000' } };
  const after = { id: 'b2', name: 'bash', args: { command: 'echo never > after.txt' } };
  const run = scripted(t, [{ toolCalls: [bash, after] }, { expect: { contains: ['cancelled'] }, text: 'The command was stopped.' }]);
  const result = await converse(run.args(...UNCONFINED, '--auto', 'high'), (client) => client.send(say('Wait a long time.')), (event, client) => {
    if (event.type === 'tool_call') void waitForPid(join(run.dir, 'child.pid')).then(() => client.send({ type: 'interrupt' }));
    if (event.type === 'turn_end' && event.turn === 1) client.send(say('What happened?'));
    if (event.type === 'turn_end' && event.turn === 2) client.end();
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.match(result.events.find((event) => event.type === 'tool_result'), { id: 'b1', status: 'error', output: /cancelled and was killed/ });
  const answered = result.events.filter((event) => event.type === 'tool_result').map((event) => event.id);
  t.same(result.events.filter((event) => event.type === 'tool_call').map((event) => event.id), answered, 'every tool_call has its tool_result');
  t.same(answered, ['b1'], 'the call after the interrupted one never runs');
  t.notOk(existsSync(join(run.dir, 'after.txt')));
  t.match(result.events.filter((event) => event.type === 'turn_end'), [{ status: 'interrupted' }, { status: 'success' }]);
  t.notOk(isRunning(Number(readFileSync(join(run.dir, 'child.pid'), 'utf8'))), 'the command is gone');
});

t.test('an interrupt also ends the turns queued before it at once; a message sent after it runs', async (t) => {
  const run = scripted(t, [{ delayMs: 100, chunks: ['slow ', 'slow ', 'slow ', 'slow'] }, { expect: { contains: ['after'] }, text: 'Fresh start.' }]);
  let sent = false;
  const result = await converse(run.args(), (client) => {
    client.send(say('first'));
    client.send(say('queued'));
  }, (event, client) => {
    if (event.type !== 'text' || sent) return;
    sent = true;
    client.send({ type: 'interrupt' });
    client.send(say('after'));
    client.end();
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.match(result.events.filter((event) => event.type === 'turn_end'), [{ turn: 1, status: 'interrupted' }, { turn: 2, status: 'interrupted' }, { turn: 3, status: 'success' }]);
  t.same(kinds(result.events).slice(-7), ['turn_start', 'turn_end', 'turn_start', 'text', 'final', 'turn_end', 'run_end'], 'the queued turn asks no model');
});

t.test('SIGINT between turns, stdin still open: cancelled, exactly one run_end, exit 130', async (t) => {
  const run = scripted(t, [{ text: 'Ready.' }]);
  const result = await converse(run.args(), (client) => client.send(say('hi')), (event, client) => {
    if (event.type === 'turn_end') client.kill('SIGINT');
  }, { env: run.env, process: true });
  t.equal(result.code, 130);
  t.same(result.problems, []);
  t.same(kinds(result.events).slice(-3), ['turn_end', 'error', 'run_end']);
  t.match(result.events.at(-2), { code: 'cancelled', message: 'Cancelled by SIGINT.' });
});

t.test('a bad line mid-turn stops the turn and ends the run as a usage error naming the line', async (t) => {
  const run = scripted(t, [{ delayMs: 200, chunks: ['one ', 'two ', 'three ', 'four ', 'five.'] }]);
  let sent = false;
  const result = await converse(run.args(), (client) => client.send(say('go')), (event, client) => {
    if (event.type !== 'text' || sent) return;
    sent = true;
    client.send({ type: 'message', role: 'user', content: 'x', extra: 1 });
  }, { env: run.env });
  t.equal(result.code, 2);
  t.same(result.problems, []);
  t.match(result.events.at(-2), { type: 'error', code: 'usage_error', message: 'Invalid stream-json input at line 2: extra: Unrecognized key: "extra"' });
  t.notOk(turnText(result.events, 1).includes('five'), 'the turn stopped');
});

t.test('usage errors: the flags that need each other', async (t) => {
  const run = scripted(t, [{ text: 'never' }]);
  const cases: [string[], RegExp][] = [
    [['--multi-turn'], /--multi-turn needs --input-format stream-json/],
    [['-i', 'stream-json', '--permission-prompt', 'stdio'], /--permission-prompt stdio needs --multi-turn and --output-format stream-json/],
    [['-i', 'stream-json', '--multi-turn', '--permission-timeout', '5'], /--permission-timeout needs --permission-prompt stdio/],
    [['-i', 'stream-json', '-o', 'json', '--heartbeat', '5'], /--heartbeat needs --output-format stream-json/],
    [['-i', 'stream-json', '--heartbeat', '0'], /Invalid value for --heartbeat: "0"/],
    [['-i', 'stream-json', '--multi-turn', '--permission-prompt', 'tty'], /Invalid value for --permission-prompt: "tty"/],
  ];
  for (const [flags, message] of cases) {
    const result = await zeroHere(['exec', ...run.args(...flags)], { env: run.env, stdin: `${JSON.stringify({ schemaVersion: 1, ...say('hi') })}\n` });
    t.equal(result.code, 2, flags.join(' '));
    t.match(jsonLines(result.stdout)[0], { type: 'error', code: 'usage_error', message });
  }
});

t.test('without --multi-turn, an interrupt line is refused as before, naming the flag it needs', async (t) => {
  const run = scripted(t, [{ text: 'never' }]);
  const stdin = [say('hi'), { type: 'interrupt' }].map((event) => JSON.stringify({ schemaVersion: 1, ...event })).join('\n') + '\n';
  const result = await zeroHere(['exec', '-i', 'stream-json', ...run.args()], { env: run.env, stdin });
  t.equal(result.code, 2);
  t.match(jsonLines(result.stdout)[0], { code: 'usage_error', message: 'Invalid stream-json input at line 2: type: "interrupt" events are accepted only with --multi-turn' });
});

t.test('the session records every turn: --resume sends the whole conversation, to one prompt or to a conversation', async (t) => {
  const run = scripted(t, [{ text: 'Noted: blue.' }, { text: 'Noted: seven.' }]);
  const later = writeScript(run.dir, [{ expect: { contains: ['favourite colour is blue', 'Noted: blue.', 'number is seven', 'Noted: seven.', 'Both?'] }, text: 'Blue and seven.' }], '.later.jsonl');
  const { start, onEvent } = oneAfterAnother(['My favourite colour is blue.', 'My number is seven.']);
  const first = await converse(run.args(), start, onEvent, { env: run.env });
  t.equal(first.code, 0);
  const sessionId = first.events[0]!.sessionId as string;
  const resumed = await zeroHere(['exec', ...run.args('--script', later, '--resume', sessionId, 'Both?')], { env: run.env });
  t.equal(resumed.code, 0, resumed.stdout);
  t.match(jsonLines(resumed.stdout).find((event) => event.type === 'final'), { text: 'Blue and seven.' });
  // and resumed as a conversation again: its turns count from 1, the history holds all three exchanges
  const third = writeScript(run.dir, [{ expect: { contains: ['favourite colour is blue', 'Both?', 'Blue and seven.', 'And now?'] }, text: 'Still blue.' }], '.third.jsonl');
  const again = oneAfterAnother(['And now?']);
  const conversation = await converse(run.args('--script', third, '--resume', sessionId), again.start, again.onEvent, { env: run.env });
  t.equal(conversation.code, 0, conversation.stderr);
  t.same(conversation.problems, []);
  t.match(conversation.events, [{ type: 'run_start', sessionId }, { type: 'turn_start', turn: 1, content: 'And now?' }]);
  t.equal(turnText(conversation.events, 1), 'Still blue.');
});

t.test('a secret in a message is redacted in its turn_start and in the session, like every output', async (t) => {
  const run = scripted(t, [{ text: 'Noted.' }, { text: 'Noted again.' }]);
  const key = 'sk-proj-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNm';
  const { start, onEvent } = oneAfterAnother(['hello', `my key is ${key}`]);
  const result = await converse(run.args(), start, onEvent, { env: run.env });
  t.equal(result.code, 0);
  t.match(result.events.find((event) => event.type === 'turn_start' && event.turn === 2), { content: 'my key is [REDACTED]' });
  const sessionId = result.events[0]!.sessionId as string;
  const stored = readFileSync(join(run.dir, '.home', 'sessions', sessionId, 'events.jsonl'), 'utf8');
  t.ok(stored.includes('my key is [REDACTED]'));
  t.notOk(stored.includes(key), 'the key never reaches the disk');
});

t.test('--heartbeat: beats while a long command runs (in both versions), none in the session; nothing else is changed', async (t) => {
  for (const version of [1, 2] as const) {
    const bash = { id: 'b1', name: 'bash', args: { command: 'echo $$ > child.pid; sleep 1000' } };
    const run = scripted(t, [{ toolCalls: [bash] }]);
    let calling = false;
    let beats = 0;
    const result = await converse(run.args(...UNCONFINED, '--auto', 'high', '--heartbeat', '0.05'), (client) => client.send(say('Wait.')), (event, client) => {
      if (event.type === 'tool_call') calling = true;
      if (event.type === 'heartbeat' && calling && ++beats === 2) client.send({ type: 'interrupt' });
      if (event.type === 'turn_end') client.end();
    }, { env: run.env, version });
    t.equal(result.code, 0);
    t.same(result.problems, [], `every line valid in version ${version}`);
    const types = kinds(result.events);
    const during = types.slice(types.indexOf('tool_call') + 1, types.indexOf('tool_result'));
    t.ok(during.length >= 2 && during.every((type) => type === 'heartbeat'), 'heartbeats while the command runs');
    const beat = result.events.find((event) => event.type === 'heartbeat')!;
    t.same(Object.keys(beat), ['schemaVersion', 'type', 'runId']);
    t.equal(beat.schemaVersion, version);
    t.ok(types.indexOf('heartbeat') > types.indexOf('run_start') && types.lastIndexOf('heartbeat') < types.indexOf('run_end'));
    const stored = readFileSync(join(run.dir, '.home', 'sessions', result.events[0]!.sessionId as string, 'events.jsonl'), 'utf8');
    t.notOk(stored.includes('"heartbeat"'), 'the session keeps the conversation, not the beats');
    t.notOk(isRunning(Number(readFileSync(join(run.dir, 'child.pid'), 'utf8'))), 'the command is gone');
  }
});

t.test('SIGHUP while a command runs, stdin open: the command is killed and answered, exactly one run_end, exit 129', async (t) => {
  const bash = { id: 'b1', name: 'bash', args: { command: 'echo $$ > child.pid; sleep 1000' } };
  const run = scripted(t, [{ toolCalls: [bash] }]);
  const result = await converse(run.args(...UNCONFINED, '--auto', 'high'), (client) => client.send(say('Wait.')), (event, client) => {
    if (event.type === 'tool_call') void waitForPid(join(run.dir, 'child.pid')).then(() => client.kill('SIGHUP'));
  }, { env: run.env, process: true });
  t.equal(result.code, 129);
  t.same(result.problems, [], 'every tool_call answered, one run_end');
  t.same(kinds(result.events).slice(-4), ['tool_result', 'turn_end', 'error', 'run_end']);
  t.match(result.events.at(-3), { type: 'turn_end', turn: 1, status: 'interrupted' }, 'the turn the signal cut is ended before the run');
  t.equal(result.events.filter((event) => event.type === 'run_end').length, 1);
  t.notOk(isRunning(Number(readFileSync(join(run.dir, 'child.pid'), 'utf8'))), 'the command is gone');
});
