import t from 'tap';
import { UsageError } from '../../../lib/errors.js';
import { NO_INPUT, NO_PROMPT } from '../../../lib/protocol/combine.js';
import { conversationStep, failureAsItem } from '../../../lib/protocol/conversation.js';
import type { ConversationEvent } from '../../../lib/protocol/types.js';
import { applyStep } from '../../../lib/streams.js';

const PNG = 'iVBORw0KGgo=';

t.test('each message or prompt is a turn of its own, trimmed; control events are handed on as they come', async (t) => {
  const events: ConversationEvent[] = [
    { schemaVersion: 1, type: 'message', role: 'user', content: '  first  ' },
    { schemaVersion: 1, type: 'interrupt' },
    { schemaVersion: 1, type: 'prompt', content: '   ' },
    { schemaVersion: 1, type: 'permission_response', id: 'c1', decision: 'allow_always', reason: 'trusted' },
    { schemaVersion: 2, type: 'message', role: 'user', content: '', images: [{ mediaType: 'image/png', data: PNG }] },
  ];
  t.same(applyStep(conversationStep(), events), [
    { kind: 'turn', prompt: 'first' },
    { kind: 'interrupt' },
    { kind: 'permission', id: 'c1', decision: 'allow_always', reason: 'trusted' },
    { kind: 'turn', prompt: '', images: [{ mediaType: 'image/png', data: PNG }] },
  ]);
});

t.test('an input without events, or without a turn, fails at its end as a one-prompt input does', async (t) => {
  t.throws(() => applyStep(conversationStep(), []), new UsageError(NO_INPUT));
  t.throws(() => applyStep(conversationStep(), [{ schemaVersion: 1, type: 'interrupt' }]), new UsageError(NO_PROMPT));
});

t.test('failureAsItem: a failure is the last item, and what follows it is dropped', async (t) => {
  const failure = new UsageError('Invalid stream-json input at line 2: expected a JSON object.');
  const step = failureAsItem<string>({
    write(line, emit) {
      if (line === 'bad') throw failure;
      emit({ kind: 'turn', prompt: line });
    },
    end(emit) {
      emit({ kind: 'turn', prompt: 'never' });
    },
  });
  t.same(applyStep(step, ['one', 'bad', 'two']), [{ kind: 'turn', prompt: 'one' }, { kind: 'failure', error: failure }]);
});
