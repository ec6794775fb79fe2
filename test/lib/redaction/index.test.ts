import t from 'tap';
import * as redaction from '../../../lib/redaction/index.js';

t.test('the public API', async (t) => {
  t.equal(redaction.REDACTED, '[REDACTED]');
  for (const name of ['isSensitiveKey', 'isSensitiveQueryParam', 'normaliseKey', 'redactText', 'mayContainSecret', 'redactValue', 'redactEvent'] as const) {
    t.type(redaction[name], 'function', name);
  }
  t.ok(redaction.TEXT_RULES.length > 10);
  t.equal(redaction.MIN_SECRET_LENGTH, 8);
});

t.test('end to end through the index', async (t) => {
  const key = 'gh' + 'p_' + 'R'.repeat(36);
  t.same(
    redaction.redactEvent({ type: 'tool_result', id: 'call_1', status: 'ok', output: `GITHUB_TOKEN=${key}\n`, truncated: false }),
    { type: 'tool_result', id: 'call_1', status: 'ok', output: 'GITHUB_TOKEN=[REDACTED]\n', truncated: false },
  );
});
