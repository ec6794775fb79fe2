import t from 'tap';
import { createPermissionDesk, timedOut } from '../../../lib/agent/permission-desk.js';

const call = (id: string, name = 'bash') => ({ id, name });

t.test('an answer settles the request of its id; allow_always stands for later calls of that tool only', async (t) => {
  const notices: string[] = [];
  const desk = createPermissionDesk((message) => notices.push(message));
  const signal = new AbortController().signal;
  const first = desk.ask(call('c1'), signal);
  desk.answer({ id: 'c1', decision: 'deny', reason: 'not on main' });
  t.same(await first, { action: 'deny', reason: 'The client denied permission to run this bash call. Their reason: not on main' });
  t.equal(desk.remembered('bash'), undefined, 'a plain answer is for one call');
  const once = desk.ask(call('c2'), signal);
  desk.answer({ id: 'c2', decision: 'allow' });
  t.same(await once, { action: 'allow', reason: 'The client allowed this bash call.' });
  t.equal(desk.remembered('bash'), undefined);
  const always = desk.ask(call('c3'), signal);
  desk.answer({ id: 'c3', decision: 'allow_always' });
  t.same(await always, { action: 'allow', reason: 'The client allowed bash for the rest of this session.' });
  t.same(desk.remembered('bash'), { action: 'allow', reason: 'The client allowed bash for the rest of this session.' });
  t.equal(desk.remembered('write_file'), undefined);
  t.same(notices, []);
});

t.test('an answer for no waiting request is a notice, and a second answer to the same request is one too', async (t) => {
  const notices: string[] = [];
  const desk = createPermissionDesk((message) => notices.push(message));
  const asked = desk.ask(call('c1'), new AbortController().signal);
  desk.answer({ id: 'c1', decision: 'allow' });
  desk.answer({ id: 'c1', decision: 'deny' });
  desk.answer({ id: 'ghost', decision: 'allow' });
  t.equal((await asked).action, 'allow', 'the first answer counts');
  t.match(notices, [/"c1" answers no permission_request/, /"ghost" answers no permission_request/]);
});

t.test('closing denies what waits and every later request; an aborted signal cancels with its reason', async (t) => {
  const desk = createPermissionDesk(() => {});
  const controller = new AbortController();
  const waiting = desk.ask(call('c1'), new AbortController().signal);
  const aborted = desk.ask(call('c2'), controller.signal);
  controller.abort(new Error('Interrupted by the client.'));
  t.same(await aborted, { action: 'cancel', reason: 'Interrupted by the client.' });
  desk.close('The input ended.');
  t.same(await waiting, { action: 'deny', reason: 'The input ended.' });
  t.same(await desk.ask(call('c3'), new AbortController().signal), { action: 'deny', reason: 'The input ended.' });
});

t.test('no answer within the timeout: denied, saying so; a late answer is a notice', async (t) => {
  const notices: string[] = [];
  const desk = createPermissionDesk((message) => notices.push(message), 20);
  t.same(await desk.ask(call('c1'), new AbortController().signal), { action: 'deny', reason: timedOut(20) });
  t.equal(timedOut(20), 'No answer within 0.02 s (--permission-timeout): denied.');
  desk.answer({ id: 'c1', decision: 'allow' });
  t.match(notices, [/"c1" answers no permission_request/]);
});
