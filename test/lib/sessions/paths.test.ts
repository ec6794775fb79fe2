import fc from '../../helpers/property.js';
import t from 'tap';
import { join, resolve } from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { SESSION_ID_PATTERN, newSessionId } from '../../../lib/protocol/ids.js';
import { assertSessionId, sessionDir, sessionsRoot } from '../../../lib/sessions/paths.js';

t.test('the root is $ZERO_HOME/sessions first', async (t) => {
  t.equal(sessionsRoot({ ZERO_HOME: '/z', XDG_DATA_HOME: '/x' }, '/home/u'), join('/z', 'sessions'));
});

t.test('a relative ZERO_HOME is resolved against the working directory', async (t) => {
  t.equal(sessionsRoot({ ZERO_HOME: 'rel' }, '/home/u'), join(resolve('rel'), 'sessions'));
});

t.test('then $XDG_DATA_HOME/zero/sessions', async (t) => {
  t.equal(sessionsRoot({ XDG_DATA_HOME: '/x' }, '/home/u'), join('/x', 'zero', 'sessions'));
});

t.test('then ~/.local/share/zero/sessions', async (t) => {
  t.equal(sessionsRoot({}, '/home/u'), join('/home/u', '.local', 'share', 'zero', 'sessions'));
});

t.test('empty variables and a relative XDG_DATA_HOME count as unset', async (t) => {
  t.equal(sessionsRoot({ ZERO_HOME: '', XDG_DATA_HOME: '' }, '/home/u'), join('/home/u', '.local', 'share', 'zero', 'sessions'));
  t.equal(sessionsRoot({ XDG_DATA_HOME: 'relative/data' }, '/home/u'), join('/home/u', '.local', 'share', 'zero', 'sessions'));
});

t.test('the default environment is the process environment', async (t) => {
  t.type(sessionsRoot(), 'string');
});

t.test('a session id is accepted as is', async (t) => {
  const id = newSessionId();
  t.doesNotThrow(() => assertSessionId(id));
  t.equal(sessionDir('/root/sessions', id), join('/root/sessions', id));
});

t.test("Zero's ids are accepted too: Go's own, and those --init-session-id chooses", async (t) => {
  for (const id of ['zero_20260603120000_1780488000000000000_1', 'my-task_1', 'CI-4711', 'x', 'a'.repeat(128)]) t.doesNotThrow(() => assertSessionId(id), id);
});

t.test('anything else is a usage error quoting it: never a path', async (t) => {
  for (const bad of ['../x', '/etc', '', '.', '..', 'zero_20240101000000_abcdef/../x', 'zero_20240101000000_abcdef\n', ' zero_20240101000000_abcdef', '_x', '-x', 'a.b', 'a:b', 'a'.repeat(129)]) {
    t.throws(() => assertSessionId(bad), new UsageError(`Invalid session id: ${JSON.stringify(bad)}`), bad);
    t.throws(() => sessionDir('/root', bad), UsageError);
  }
  t.throws(() => assertSessionId(undefined), new UsageError('Invalid session id: undefined'));
  t.throws(() => assertSessionId(42), new UsageError('Invalid session id: 42'));
});

t.test("property: exactly Zero's ids are accepted, ours among them", async () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true }).map((d) => newSessionId(d))), (id) => {
      let accepted = true;
      try {
        assertSessionId(id);
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        accepted = false;
      }
      return accepted === /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(id) && (!SESSION_ID_PATTERN.test(id) || accepted);
    }),
  );
});
