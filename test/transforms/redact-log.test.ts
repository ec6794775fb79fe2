import t from 'tap';
import { redactLog } from '../../transforms/redact-log.js';
import type { LogItem } from '../../lib/logs/framing.js';
import { through } from '../helpers/streams.js';

const KEY = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6';
const text = (delta: string, lineNo: number): LogItem => {
  const value = { schemaVersion: 1, type: 'text', runId: 'run_20261201000000_aaaaaa', delta };
  return { lineNo, value, raw: JSON.stringify(value) };
};

t.test('LogItems in, the redacted log out as text: one string per chunk written, clean lines as they came', async (t) => {
  const items = [text('Hello ', 1), text(`key ${KEY.slice(0, 9)}`, 2), text(`${KEY.slice(9)} done`, 3), { lineNo: 4, raw: 'not json', problem: 'not a JSON object' } as LogItem];
  const out = (await through<string>(redactLog(), items)).join('');
  t.notMatch(out, KEY.slice(8));
  const lines = out.trimEnd().split('\n');
  t.equal(lines[0], items[0]!.raw, 'a clean line is written as it came');
  t.equal(lines.at(-1), 'not json', 'a line that is not JSON is kept');
  t.equal(lines.slice(0, -1).map((line) => JSON.parse(line).delta).join(''), 'Hello key [REDACTED] done');
});
