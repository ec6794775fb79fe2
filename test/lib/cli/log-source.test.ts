import t from 'tap';
import { PassThrough } from 'node:stream';
import { checkFraming, openLog, READ_CHUNK_BYTES } from '../../../lib/cli/log-source.js';

t.test('openLog', async (t) => {
  const stdin = new PassThrough();
  t.equal(openLog(undefined, stdin), stdin);
  t.equal(openLog('-', stdin), stdin);
  t.throws(() => openLog('/nonexistent/file', stdin), /Cannot read \/nonexistent\/file: ENOENT/);
  t.throws(() => openLog('/', stdin), /Cannot read \/: not a file/);
  const dir = t.testdir({ 'a.jsonl': 'x' });
  const file = openLog(`${dir}/a.jsonl`, stdin);
  t.equal(file.readableHighWaterMark, READ_CHUNK_BYTES, 'read in 32 KiB pieces');
  file.destroy();
});

t.test('option checks', async (t) => {
  t.equal(checkFraming('values'), 'values');
  t.throws(() => checkFraming('xml'), /Invalid value for --framing/);
  t.equal(checkFraming('VALUES'), 'values', 'case-insensitive, like every choice flag');
});
