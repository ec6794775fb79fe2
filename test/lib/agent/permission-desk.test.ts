import t from 'tap';
import { createPermissionDesk } from '../../../lib/agent/permission-desk.js';

const call = (id: string, name = 'bash') => ({ id, name });

t.test('an answer settles the request of its id; remember stands for later calls of that tool only', async (t) => {
  const notices: string[] = [];
  const desk = createPermissionDesk((message) => notices.push(message));
  const signal = new AbortController().signal;
  const first = desk.ask(call('c1'), signal);
  desk.answer({ id: 'c1', action: 'deny' });
  t.same(await first, { action: 'deny', reason: 'The client denied permission to run this bash call.' });
  t.equal(desk.remembered('bash'), undefined, 'a plain answer is for one call');
  const second = desk.ask(call('c2'), signal);
  desk.answer({ id: 'c2', action: 'allow', remember: true });
  t.same(await second, { action: 'allow', reason: 'The client allowed bash for the rest of this run.' });
  t.same(desk.remembered('bash'), { action: 'allow', reason: 'The client allowed bash for the rest of this run.' });
  t.equal(desk.remembered('write_file'), undefined);
  t.same(notices, []);
});

t.test('an answer for no waiting request is a notice, and a second answer to the same request is one too', async (t) => {
  const notices: string[] = [];
  const desk = createPermissionDesk((message) => notices.push(message));
  const asked = desk.ask(call('c1'), new AbortController().signal);
  desk.answer({ id: 'c1', action: 'allow' });
  desk.answer({ id: 'c1', action: 'deny' });
  desk.answer({ id: 'ghost', action: 'allow' });
  t.equal((await asked).action, 'allow', 'the first answer counts');
  t.match(notices, [/"c1" answers no permission_request/, /"ghost" answers no permission_request/]);
});

t.test('closing cancels what waits and every later request; an aborted signal cancels with its reason', async (t) => {
  const desk = createPermissionDesk(() => {});
  const controller = new AbortController();
  const waiting = desk.ask(call('c1'), new AbortController().signal);
  const aborted = desk.ask(call('c2'), controller.signal);
  controller.abort(new Error('Interrupted by the client.'));
  t.same(await aborted, { action: 'cancel', reason: 'Interrupted by the client.' });
  desk.close('The input ended.');
  t.same(await waiting, { action: 'cancel', reason: 'The input ended.' });
  t.same(await desk.ask(call('c3'), new AbortController().signal), { action: 'cancel', reason: 'The input ended.' });
});
