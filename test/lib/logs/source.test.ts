import t from 'tap';
import { PassThrough } from 'node:stream';
import { checkCount, checkFormat, checkFraming, openLog } from '../../../lib/logs/source.js';

t.test('openLog', async (t) => {
  const stdin = new PassThrough();
  t.equal(openLog(undefined, stdin), stdin);
  t.equal(openLog('-', stdin), stdin);
  t.throws(() => openLog('/nonexistent/file', stdin), /Cannot read \/nonexistent\/file: ENOENT/);
  t.throws(() => openLog('/', stdin), /Cannot read \/: not a file/);
  const dir = t.testdir({ 'a.jsonl': 'x' });
  openLog(`${dir}/a.jsonl`, stdin).destroy();
});

t.test('option checks', async (t) => {
  t.equal(checkFraming('values'), 'values');
  t.throws(() => checkFraming('xml'), /Invalid value for --framing/);
  t.equal(checkFormat('JSON'), 'json');
  t.throws(() => checkFormat('yaml'), /Expected one of: text, json, stream-json/);
  t.equal(checkCount('--delay', '0'), 0);
  t.throws(() => checkCount('--delay', '-1'));
  t.throws(() => checkCount('--max-problems', '1.5'));
});
