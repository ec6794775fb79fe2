import t from 'tap';
import { createEventRedactor } from '../../../lib/redaction/events.js';
import type { Event } from '../../../lib/protocol/types.js';

const key = ['ghp_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');

function run(events: Event[], secrets?: string[]): Event[] {
  const redactor = createEventRedactor({ secrets });
  return [...events.flatMap((event) => redactor.event(event)), ...redactor.end()];
}

t.test('text deltas are held back and re-split; other events are redacted whole, after the held text', async (t) => {
  const out = run([
    { type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'scripted' },
    { type: 'text', delta: `token ${key.slice(0, 10)}` },
    { type: 'text', delta: key.slice(10) },
    { type: 'tool_call', id: 'c1', name: 'grep', args: { pattern: key } },
    { type: 'tool_result', id: 'c1', status: 'ok', output: `a.txt:1:${key}`, truncated: false },
    { type: 'text', delta: 'Found it' },
    { type: 'final', text: 'Found it' },
  ]);
  t.same(out, [
    { type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'scripted' },
    // `token ` is held with the token after it: a name next to an open match is open too (hold.ts)
    { type: 'text', delta: 'token [REDACTED]' },
    { type: 'tool_call', id: 'c1', name: 'grep', args: { pattern: '[REDACTED]' } },
    { type: 'tool_result', id: 'c1', status: 'ok', output: 'a.txt:1:[REDACTED]', truncated: false },
    { type: 'text', delta: 'Found ' },
    { type: 'text', delta: 'it' },
    { type: 'final', text: 'Found it' },
  ]);
});

t.test('the end of the stream releases what is held, and never an empty delta', async (t) => {
  t.same(run([{ type: 'text', delta: 'dangling' }]), [{ type: 'text', delta: 'dangling' }]);
  t.same(run([{ type: 'text', delta: '' }, { type: 'final', text: '' }]), [{ type: 'final', text: '' }]);
});

t.test('error messages and warnings are redacted too', async (t) => {
  const out = run([{ type: 'error', code: 'provider_error', message: `refused key ${key}`, recoverable: false }, { type: 'warning', message: 'uses plain-credential-1234' }], ['plain-credential-1234']);
  t.same(out, [
    { type: 'error', code: 'provider_error', message: 'refused key [REDACTED]', recoverable: false },
    { type: 'warning', message: 'uses [REDACTED]' },
  ]);
});
