import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { converse, kinds, say, scripted, type Event } from '../../helpers/conversation.js';

// --permission-prompt stdio driven as a client drives it: each permission_request answered (or not) on stdin,
// in both schema versions; every output is a valid log of its version.

const writeNotes = (id: string, path = 'NOTES.md') => ({ id, name: 'write_file', args: { path, content: `${id}\n` } });
/**
 * --auto low allows writes inside the working directory without asking; in the read-only sandbox it does not, so
 * each write waits for the client. Without bash, the run says nothing about the sandbox.
 */
const ASKED = ['--sandbox', 'read-only', '--disabled-tools', 'bash'];
const ofType = (events: Event[], type: string) => events.filter((event) => event.type === type);

t.test('allow runs the call, deny (with a reason) refuses it: request, decision, result; version 1 has the permission events too', async (t) => {
  const run = scripted(t, [{ toolCalls: [writeNotes('w1')] }, { toolCalls: [writeNotes('w2')] }, { expect: { contains: ['The client denied permission', 'not twice'] }, text: 'One write was allowed.' }]);
  const answers = [{ decision: 'allow' }, { decision: 'deny', reason: 'not twice' }];
  const result = await converse(run.args(...ASKED, '--permission-prompt', 'stdio'), (client) => client.send(say('Write notes twice.')), (event, client) => {
    if (event.type === 'permission_request') client.send({ type: 'permission_response', id: event.id, ...answers.shift() });
    if (event.type === 'turn_end') client.end();
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.ok(result.events.every((event) => event.schemaVersion === 1), 'written in the version of the input, 1');
  t.same(kinds(result.events).slice(1, 11), ['turn_start', 'tool_call', 'permission_request', 'permission_decision', 'tool_result', 'tool_call', 'permission_request', 'permission_decision', 'tool_result', 'text'], 'no checkpoint in version 1');
  t.match(ofType(result.events, 'permission_request')[0], { id: 'w1', name: 'write_file', action: 'prompt', permission: 'prompt', permissionMode: 'ask', sideEffect: 'write', reason: /allow, deny or allow_always/ });
  t.match(ofType(result.events, 'permission_decision'), [
    { id: 'w1', action: 'allow', permissionGranted: true, decisionReason: 'The client allowed this write_file call.' },
    { id: 'w2', action: 'deny', permissionGranted: false, decisionReason: 'The client denied permission to run this write_file call. Their reason: not twice' },
  ]);
  t.match(ofType(result.events, 'tool_result'), [{ id: 'w1', status: 'ok' }, { id: 'w2', status: 'error', output: /denied.*not twice/ }]);
  t.equal(readFileSync(join(run.dir, 'NOTES.md'), 'utf8'), 'w1\n', 'only the allowed write happened');
});

t.test('allow_always (version 2): one answer stands for every later call of that tool; a response for no request is a warning', async (t) => {
  const run = scripted(t, [{ toolCalls: [writeNotes('w1')] }, { toolCalls: [writeNotes('w2')] }, { text: 'Both written.' }]);
  const result = await converse(run.args(...ASKED, '--permission-prompt', 'stdio'), (client) => client.send(say('Write twice.')), (event, client) => {
    if (event.type === 'permission_request') client.send({ type: 'permission_response', id: event.id, decision: 'allow_always' });
    if (event.type === 'permission_decision') client.send({ type: 'permission_response', id: 'nobody', decision: 'deny' });
    if (event.type === 'turn_end') client.end();
  }, { env: run.env, version: 2 });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.ok(result.events.every((event) => event.schemaVersion === 2));
  t.equal(ofType(result.events, 'permission_request').length, 1, 'asked once');
  t.match(ofType(result.events, 'permission_decision'), [{ id: 'w1', action: 'allow' }, { id: 'w2', action: 'allow', decisionReason: /write_file for the rest of this session/ }]);
  t.match(ofType(result.events, 'warning')[0], { message: /"nobody" answers no permission_request/ });
  t.equal(readFileSync(join(run.dir, 'NOTES.md'), 'utf8'), 'w2\n');
});

t.test('no answer within --permission-timeout: denied, saying why; the turn goes on', async (t) => {
  const run = scripted(t, [{ toolCalls: [writeNotes('w1')] }, { expect: { contains: ['No answer within 0.2 s'] }, text: 'Nobody answered in time.' }]);
  const result = await converse(run.args(...ASKED, '--permission-prompt', 'stdio', '--permission-timeout', '0.2'), (client) => client.send(say('Write.')), (event, client) => {
    if (event.type === 'turn_end') client.end();
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.same(kinds(result.events).slice(2, 6), ['tool_call', 'permission_request', 'permission_decision', 'tool_result']);
  t.match(ofType(result.events, 'permission_decision')[0], { action: 'deny', permissionGranted: false, decisionReason: 'No answer within 0.2 s (--permission-timeout): denied.' });
  t.match(ofType(result.events, 'tool_result')[0], { id: 'w1', status: 'error', output: /No answer within/ });
  t.notOk(existsSync(join(run.dir, 'NOTES.md')));
});

t.test('stdin closing while a request waits: denied, saying the input ended; the turn finishes, the run succeeds', async (t) => {
  const run = scripted(t, [{ toolCalls: [writeNotes('w1')] }, { expect: { contains: ['input ended'] }, text: 'Nobody answered.' }]);
  const result = await converse(run.args(...ASKED, '--permission-prompt', 'stdio'), (client) => client.send(say('Write.')), (event, client) => {
    if (event.type === 'permission_request') client.end();
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.match(ofType(result.events, 'permission_decision')[0], { action: 'deny', permissionGranted: false, decisionReason: /the input ended/ });
  t.same(kinds(result.events).slice(-4), ['text', 'final', 'turn_end', 'run_end']);
  t.notOk(existsSync(join(run.dir, 'NOTES.md')));
});

t.test('the path sandbox still applies: an approved write outside the allowed directories is refused', async (t) => {
  const run = scripted(t, [{ toolCalls: [writeNotes('w1', '../outside.md')] }, { text: 'It was refused.' }]);
  const result = await converse(run.args(...ASKED, '--permission-prompt', 'stdio'), (client) => client.send(say('Write outside.')), (event, client) => {
    if (event.type === 'permission_request') client.send({ type: 'permission_response', id: event.id, decision: 'allow' });
    if (event.type === 'turn_end') client.end();
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.match(ofType(result.events, 'tool_result')[0], { id: 'w1', status: 'error' });
  t.notOk(existsSync(join(run.dir, '..', 'outside.md')), 'nothing was written outside');
});

t.test('SIGTERM while a permission request waits: the call is cancelled, then error and run_end (version 2: interrupted, 130)', async (t) => {
  const run = scripted(t, [{ toolCalls: [writeNotes('w1')] }]);
  const result = await converse(run.args(...ASKED, '--permission-prompt', 'stdio', '--schema-version', '2'), (client) => client.send(say('Write.')), (event, client) => {
    if (event.type === 'permission_request') client.kill('SIGTERM');
  }, { env: run.env, process: true });
  t.equal(result.code, 130);
  t.same(result.problems, []);
  t.same(kinds(result.events).slice(-6), ['permission_request', 'permission_decision', 'tool_result', 'turn_end', 'error', 'run_end']);
  t.match(result.events.at(-3), { type: 'turn_end', status: 'interrupted' });
  t.match(ofType(result.events, 'permission_decision')[0], { action: 'cancel' });
  t.match(result.events.at(-1), { status: 'interrupted', exitCode: 130 });
});

t.test('an answer gets through while 64 and more messages wait behind the turn that asks', async (t) => {
  const waiting = 70;
  const run = scripted(t, [{ toolCalls: [writeNotes('w1')] }, { text: 'Written.' }, ...Array.from({ length: waiting }, () => ({ text: 'Next.' }))]);
  let ended = 0;
  const result = await converse(run.args(...ASKED, '--permission-prompt', 'stdio', '--permission-timeout', '20'), (client) => {
    client.send(say('Write.'));
    for (let n = 0; n < waiting; n++) client.send(say(`message ${n}`));
  }, (event, client) => {
    if (event.type === 'permission_request') client.send({ type: 'permission_response', id: event.id, decision: 'allow' });
    if (event.type === 'turn_end' && ++ended === waiting + 1) client.end();
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  t.match(ofType(result.events, 'permission_decision'), [{ id: 'w1', action: 'allow' }], 'answered, not timed out behind the queue');
  t.equal(ofType(result.events, 'turn_end').length, waiting + 1);
});

t.test('a flood while a permission_request waits: what is held stays bounded, the answer still lands, the turns not kept end interrupted', async (t) => {
  // the turns kept (8 MiB of them) are answered after the first
  const run = scripted(t, [{ toolCalls: [writeNotes('w1')] }, ...Array.from({ length: 100 }, () => ({ text: 'ok' }))]);
  const message = 'x'.repeat(100_000);
  const FLOOD = 2_000;
  let peakKb = 0;
  const result = await converse(run.args(...ASKED, '--permission-prompt', 'stdio', '--no-session'), (client) => client.send(say('Write notes.')), (event, client) => {
    if (event.type === 'permission_request') {
      // 200 MB of messages in front of the answer (bench/soak.ts sends 100,000 of 10 KB)
      void client.sendMany(Array.from({ length: FLOOD }, (_, at) => say(`${at} ${message}`))).then(() => client.send({ type: 'permission_response', id: event.id, decision: 'allow' }));
    }
    if (event.type === 'tool_result') {
      peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${client.pid}/status`, 'utf8'))?.[1]);
      client.end();
    }
  }, { env: run.env, process: true });
  t.equal(result.code, 0, result.stderr);
  t.same(result.problems, []);
  t.match(ofType(result.events, 'permission_decision'), [{ id: 'w1', action: 'allow' }], 'the answer behind the flood lands');
  t.equal(readFileSync(join(run.dir, 'NOTES.md'), 'utf8'), 'w1\n');
  // the process itself is about 100 MB; holding the flood took it past 300 MB
  t.ok(peakKb > 0 && peakKb < 250_000, `peak RSS ${Math.round(peakKb / 1024)} MB`);
  const ends = ofType(result.events, 'turn_end');
  t.equal(ends.length, FLOOD + 1, 'every turn ends');
  const kept = ends.filter((end) => end.status === 'success').length;
  t.ok(kept > 70 && kept < 100, `${kept} turns kept and answered`);
  t.ok(ends.slice(kept).every((end) => end.status === 'interrupted'), 'the others interrupted');
  t.match(ofType(result.events, 'warning'), [{ message: /^Turns \d+ to 2001 arrived while a permission_request waited, with 8 MiB of input held already: not kept/ }]);
});

t.test('a call id that looks like a secret: the client answers with the redacted_<hash> id it was shown, and the answer is taken', async (t) => {
  const secretId = ['sk-proj-', 'Q7xL1spNxnyVmihA2O76UMFxFkMR5Kjp1vRt'].join('');
  const run = scripted(t, [{ toolCalls: [writeNotes(secretId)] }, { text: 'Written.' }]);
  const result = await converse(run.args(...ASKED, '--permission-prompt', 'stdio', '--permission-timeout', '30'), (client) => client.send(say('Write notes.')), (event, client) => {
    if (event.type === 'permission_request') client.send({ type: 'permission_response', id: event.id, decision: 'allow' });
    if (event.type === 'turn_end') client.end();
  }, { env: run.env });
  t.equal(result.code, 0);
  t.same(result.problems, []);
  const [request] = ofType(result.events, 'permission_request');
  t.match(request, { id: /^redacted_[0-9a-f]{16}$/ }, 'the id is shown redacted');
  t.match(ofType(result.events, 'permission_decision'), [{ id: request!.id, action: 'allow' }], 'and answered by it, at once');
  t.equal(ofType(result.events, 'warning').length, 0);
  t.ok(existsSync(join(run.dir, 'NOTES.md')), 'the write ran');
});
