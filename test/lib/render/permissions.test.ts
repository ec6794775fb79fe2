import t from 'tap';
import { MAX_PERMISSION_NOTES, notePermission, permissionWords } from '../../../lib/render/permissions.js';
import { createRedactor } from '../../../lib/render/shown.js';

const redact = createRedactor();
const request = (fields: Record<string, unknown> = {}) => ({ type: 'permission_request', permissionMode: 'ask', reason: 'Permission required: bash runs shell commands. Answer with a permission_response naming this id: allow, deny or allow_always.', ...fields });
const decision = (action: string, decisionReason: string) => ({ type: 'permission_decision', action, decisionReason });

t.test('a request the client answered: the decision and its reason, not the request\'s text', async (t) => {
  const asked = notePermission(undefined, request(), redact)!;
  t.same(asked, [{ decision: 'asked', asked: true, reason: request().reason }]);
  t.same(permissionWords(asked[0]!), { heading: 'Permission asked, no answer in the log', reason: '' });
  for (const [action, word] of [['allow', 'allowed'], ['deny', 'denied'], ['cancel', 'cancelled']]) {
    const [note] = notePermission(asked, decision(action!, `because ${action}`), redact)!;
    t.same(permissionWords(note!), { heading: `Permission asked, ${word}`, reason: `because ${action}` }, action);
  }
});

t.test('a decision without a request (allowed for the session), a request the run refused, the sandbox\'s block', async (t) => {
  const [remembered] = notePermission(undefined, decision('allow', 'The client allowed bash for the rest of this session.'), redact)!;
  t.same(permissionWords(remembered!), { heading: 'Permission allowed', reason: 'The client allowed bash for the rest of this session.' });
  const [refused] = notePermission(undefined, request({ permissionMode: 'auto', reason: 'Needs --auto high.' }), redact)!;
  t.same(permissionWords(refused!), { heading: 'Permission refused', reason: 'Needs --auto high.' });
  const [blocked] = notePermission(undefined, request({ block: { code: 'outside_workspace' }, reason: 'Path is outside.' }), redact)!;
  t.same(permissionWords(blocked!), { heading: 'Permission refused (outside_workspace)', reason: 'Path is outside.' }, 'a block needs no answer, even in ask mode');
});

t.test('bounded, and redacted', async (t) => {
  let notes = notePermission(undefined, request(), redact)!;
  for (let i = 1; i < MAX_PERMISSION_NOTES; i++) notes = notePermission(notes, request(), redact)!;
  t.equal(notePermission(notes, request(), redact), undefined, 'no room left');
  t.equal(notePermission(notes, decision('deny', 'no'), redact)![0]!.decision, 'denied', 'a decision still answers a request waiting');
  const key = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4';
  t.notMatch(JSON.stringify(notePermission(undefined, decision('deny', `key ${key}`), redact)), key.slice(8));
});
