import t from 'tap';
import * as sessions from '../../../lib/sessions/index.js';

t.test('the store is one import', async (t) => {
  t.same(Object.keys(sessions).sort(), [
    'EVENTS_FILE',
    'LOCK_FILE',
    'METADATA_FILE',
    'TITLE_LENGTH',
    'appendEvents',
    'assertSessionId',
    'conversationFromEvents',
    'createSession',
    'diskFailure',
    'eventsPath',
    'forkSession',
    'historyChars',
    'isSessionId',
    'latestSessionFor',
    'listSessions',
    'lockSession',
    'messageChars',
    'openSession',
    'prepareStore',
    'promptEvent',
    'pruneSessions',
    'readAllEvents',
    'readEvents',
    'removeSession',
    'sessionDir',
    'sessionExists',
    'sessionsRoot',
    'syncSession',
    'titleFromPrompt',
    'trimHistory',
    'unlockSession',
  ]);
});

t.test('a whole round: create, record, resume, rebuild', async (t) => {
  const root = sessions.sessionsRoot({ ZERO_HOME: t.testdir({}) });
  const created = await sessions.createSession({ root, cwd: '/work', provider: 'scripted', model: 'scripted', prompt: 'Say hi.' });
  await sessions.appendEvents(created, [sessions.promptEvent('Say hi.'), { type: 'text', delta: 'Hi.' }, { type: 'final', text: 'Hi.' }]);
  await sessions.unlockSession(created);
  const resumed = await sessions.latestSessionFor(root, '/work');
  await sessions.lockSession(resumed);
  const history = sessions.conversationFromEvents(await sessions.readAllEvents(resumed));
  t.same(history, [
    { role: 'user', content: 'Say hi.' },
    { role: 'assistant', content: 'Hi.', toolCalls: [] },
  ]);
  t.same(sessions.trimHistory(history, 1000), { messages: history, trimmed: false });
  await sessions.unlockSession(resumed);
  t.same((await sessions.listSessions(root)).map((m) => m.id), [created.id]);
});
