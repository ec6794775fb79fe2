import t from 'tap';
import { isStoredPrompt, isValidStoredPrompt } from '../../../lib/logs/prompts.js';

t.test('a stored prompt is an input event: a prompt or a message', async (t) => {
  t.ok(isStoredPrompt({ schemaVersion: 1, type: 'prompt', content: 'Hi' }));
  t.ok(isStoredPrompt({ schemaVersion: 2, type: 'message', role: 'user', content: '', images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }] }));
  t.notOk(isStoredPrompt({ schemaVersion: 1, type: 'text', runId: 'run_20260101000000_abcdef', delta: 'Hi' }));
  t.notOk(isStoredPrompt('prompt'));
});

t.test('valid: against the input schema of its own version', async (t) => {
  t.ok(isValidStoredPrompt({ schemaVersion: 1, type: 'prompt', content: 'Hi' }));
  t.ok(isValidStoredPrompt({ schemaVersion: 2, type: 'message', role: 'user', content: '', images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }] }));
  t.notOk(isValidStoredPrompt({ schemaVersion: 1, type: 'prompt', content: '' }), 'an empty prompt');
  t.notOk(isValidStoredPrompt({ schemaVersion: 1, type: 'message', role: 'user', content: '', images: [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }] }), 'images are version 2');
  t.notOk(isValidStoredPrompt({ schemaVersion: 1, type: 'text', runId: 'run_20260101000000_abcdef', delta: 'Hi' }), 'an output event is no prompt');
});
