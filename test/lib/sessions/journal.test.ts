import fc from '../../helpers/property.js';
import t from 'tap';
import { open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { appendLines, readLines, repairJournal, type StoredEvent } from '../../../lib/sessions/journal.js';
import { PIECE_CHARS, TextSpool } from '../../../lib/files/text-spool.js';

const label = 'session zero_20240102030405_abc123';

async function readAll(file: string, maxLineBytes?: number, damaged: string[] = []): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  for await (const event of readLines(file, { label, maxLineBytes, onDamaged: (message) => damaged.push(message) })) events.push(event);
  return events;
}

/** The events and the damaged-line reports of a file. */
async function readReporting(file: string, maxLineBytes?: number): Promise<{ events: StoredEvent[]; damaged: string[] }> {
  const damaged: string[] = [];
  const events = await readAll(file, maxLineBytes, damaged);
  return { events, damaged };
}

/** Counts FileHandle write calls while fn runs. */
async function countWrites(dir: string, fn: () => Promise<void>): Promise<number> {
  const probe = await open(join(dir, '.probe'), 'w');
  const proto = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
  await probe.close();
  const original = proto.write;
  let writes = 0;
  proto.write = function (this: unknown, ...args: unknown[]) {
    writes++;
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    proto.write = original;
  }
  return writes;
}

t.test('events are appended as whole JSON lines and read back in order', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  await appendLines(file, [{ type: 'prompt', content: 'hi\nthere' }, { type: 'text', delta: 'é😀' }]);
  await appendLines(file, [{ type: 'final', text: 'done' }]);
  t.equal(await readFile(file, 'utf8'), '{"type":"prompt","content":"hi\\nthere"}\n{"type":"text","delta":"é😀"}\n{"type":"final","text":"done"}\n');
  t.same(await readAll(file), [{ type: 'prompt', content: 'hi\nthere' }, { type: 'text', delta: 'é😀' }, { type: 'final', text: 'done' }]);
});

t.test('a batch is one write call; an empty batch writes nothing', async (t) => {
  const dir = t.testdir({});
  const file = join(dir, 'events.jsonl');
  t.equal(await countWrites(dir, () => appendLines(file, Array.from({ length: 100 }, (_, i) => ({ type: 'text', delta: `d${i}` })))), 1);
  t.equal(await countWrites(dir, () => appendLines(file, [])), 0);
  t.equal((await readAll(file)).length, 100);
});

t.test('a huge line (a 5 MiB answer) is written in parts of about 1 MiB, the same bytes as one line', async (t) => {
  const dir = t.testdir({});
  const file = join(dir, 'events.jsonl');
  const events = [{ type: 'text', delta: 'a' }, { type: 'final', text: 'é"\n😀'.repeat(1 << 20) }, { type: 'run_end' }];
  t.ok((await countWrites(dir, () => appendLines(file, events))) >= 5, 'several writes');
  t.equal(await readFile(file, 'utf8'), events.map((event) => `${JSON.stringify(event)}\n`).join(''));
});

t.test('concurrent appenders never interleave inside a line', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  const big = 'x'.repeat(3000);
  await Promise.all(Array.from({ length: 20 }, (_, w) => appendLines(file, Array.from({ length: 10 }, (_, i) => ({ w, i, big })))));
  const events = await readAll(file);
  t.equal(events.length, 200);
  for (let w = 0; w < 20; w++) {
    t.same(events.filter((e) => e.w === w).map((e) => e.i), [...Array(10).keys()], `writer ${w} in order, whole`);
  }
});

t.test('a missing file has no events', async (t) => {
  t.same(await readAll(join(t.testdir({}), 'none.jsonl')), []);
});

t.test('a torn last line (no newline, not JSON) is ignored', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  await writeFile(file, '{"type":"prompt","content":"a"}\n{"type":"text","delta":"par');
  t.same(await readAll(file), [{ type: 'prompt', content: 'a' }]);
  await writeFile(file, '{"type":"text","del');
  t.same(await readAll(file), []);
});

t.test('a last line that is whole JSON and lacks only its newline is read', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  await writeFile(file, '{"a":1}\n{"b":2}');
  t.same(await readAll(file), [{ a: 1 }, { b: 2 }]);
});

t.test('a damaged line in the middle is skipped and reported by its number; the lines after it are read', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  const notObject = (line: number) => `Invalid ${label} at line ${line}: expected a JSON object.`;
  // A torn line with the next append glued on, as after a crash mid-write.
  await writeFile(file, '{"a":1}\n{"b":{"c":3}\n{"d":4}\n');
  t.same(await readReporting(file), { events: [{ a: 1 }, { d: 4 }], damaged: [notObject(2)] });
  await writeFile(file, '{"a":1}\n[1,2]\n\u0000\u0000\n{"d":4}\n');
  t.same(await readReporting(file), { events: [{ a: 1 }, { d: 4 }], damaged: [notObject(2), notObject(3)] });
  // With its newline, a bad last line was not torn by a killed writer: it is reported too.
  await writeFile(file, '{"a":1}\n{"b":\n');
  t.same(await readReporting(file), { events: [{ a: 1 }], damaged: [notObject(2)] });
});

t.test('framing is the protocol\'s: BOM, CRLF and blank lines; numbers count physical lines', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  await writeFile(file, '\ufeff{"a":1}\r\n\n  \nnope\r\n{"b":2}\r\n');
  t.same(await readReporting(file), { events: [{ a: 1 }, { b: 2 }], damaged: [`Invalid ${label} at line 4: expected a JSON object.`] });
  await writeFile(file, '\ufeff{"a":1}\r\n\n  \n{"b":2}\r\n');
  t.same(await readReporting(file), { events: [{ a: 1 }, { b: 2 }], damaged: [] });
});

t.test('a line longer than the limit is skipped before it is all in memory; the count goes on after it', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  await writeFile(file, `{"a":1}\n{"b":"${'x'.repeat(200_000)}"}\n{"c":3}\nbad\n`);
  const { events, damaged } = await readReporting(file, 1000);
  t.same(events, [{ a: 1 }, { c: 3 }]);
  t.match(damaged, [/^Invalid session .* at line 2: the line is longer than 1000 bytes/, /at line 4: expected a JSON object\.$/]);
  t.equal((await readAll(file)).length, 3);
});

t.test('lines spanning read chunks, multi-byte characters split between chunks, are read whole', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  const events = Array.from({ length: 300 }, (_, i) => ({ i, text: '€😀'.repeat(i * 7) }));
  await appendLines(file, events);
  t.same(await readAll(file), events);
});

t.test('a line of megabytes over many read chunks, CRLF-ended, is read whole; a torn last line over the limit is reported, not only skipped', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  const big = 'é'.repeat(3 * 1024 * 1024);
  await writeFile(file, `{"big":"${big}"}\r\n{"b":2}\r\n{"torn":"${'x'.repeat(2000)}`);
  const { events, damaged } = await readReporting(file, 8 * 1024 * 1024);
  t.equal(events.length, 2);
  t.ok(events[0]!.big === big, 'the line is read whole');
  t.same(damaged, []);
  t.match((await readReporting(file, 1000)).damaged, [/at line 1: the line is longer than 1000 bytes/, /at line 3: the line is longer than 1000 bytes/]);
});

t.test('a reader that stops early closes the file', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  await appendLines(file, [{ a: 1 }, { a: 2 }, { a: 3 }]);
  for await (const event of readLines(file, { label })) {
    t.same(event, { a: 1 });
    break;
  }
});

t.test('repair: a torn last line is cut off and the lines counted', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  await writeFile(file, '{"a":1}\n{"b":2}\n{"c":');
  t.equal(await repairJournal(file, label), 2);
  t.equal(await readFile(file, 'utf8'), '{"a":1}\n{"b":2}\n');
  await writeFile(file, '{"c":');
  t.equal(await repairJournal(file, label), 0);
  t.equal(await readFile(file, 'utf8'), '');
});

t.test('repair: a whole last line without its newline gets it', async (t) => {
  const file = join(t.testdir({}), 'events.jsonl');
  await writeFile(file, '{"a":1}\n{"b":2}');
  t.equal(await repairJournal(file, label), 2);
  t.equal(await readFile(file, 'utf8'), '{"a":1}\n{"b":2}\n');
});

t.test('repair: a sound file is left alone, a missing one created empty', async (t) => {
  const dir = t.testdir({ 'events.jsonl': '{"a":1}\n{"b":2}\n' });
  t.equal(await repairJournal(join(dir, 'events.jsonl'), label), 2);
  t.equal(await readFile(join(dir, 'events.jsonl'), 'utf8'), '{"a":1}\n{"b":2}\n');
  t.equal(await repairJournal(join(dir, 'new.jsonl'), label), 0);
  t.equal(await readFile(join(dir, 'new.jsonl'), 'utf8'), '');
});

t.test('repair: a BOM is dropped only from a first line', async (t) => {
  const dir = t.testdir({ 'first.jsonl': '\ufeff{"a":1}', 'later.jsonl': '{"a":1}\n\ufeff{"b":2}' });
  t.equal(await repairJournal(join(dir, 'first.jsonl'), label), 1);
  t.equal(await repairJournal(join(dir, 'later.jsonl'), label), 1);
  t.equal(await readFile(join(dir, 'later.jsonl'), 'utf8'), '{"a":1}\n');
});

t.test('property: whatever a killed writer left, reading ignores the torn line, and after repair appends read back whole', async (t) => {
  const dir = t.testdir({});
  let n = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string(), fc.integer())), { minLength: 1, maxLength: 6 }),
      fc.nat(),
      async (events, cut) => {
        const file = join(dir, `p${n++}.jsonl`);
        const whole = Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(''));
        const kept = whole.subarray(0, cut % (whole.length + 1));
        await writeFile(file, kept);
        const complete = kept.toString('utf8').split('\n').length - 1;
        const read = await readAll(file);
        // The complete lines, and the last one too if the cut fell just before its newline.
        t.ok(read.length === complete || read.length === complete + 1);
        t.same(read.slice(0, complete), events.slice(0, complete));
        const lines = await repairJournal(file, label);
        t.equal(lines, read.length);
        await appendLines(file, [{ after: true }]);
        t.same(await readAll(file), [...read, { after: true }]);
      },
    ),
    { numRuns: 60 },
  );
});

t.test('a spooled final whose text is made as it is written (redacted): the event loop runs between its parts', async (t) => {
  const source = new TextSpool(1000);
  source.write('x'.repeat(64 * PIECE_CHARS));
  const slow = source.through({
    push: (piece) => {
      const until = performance.now() + 5;
      while (performance.now() < until);
      return piece;
    },
    flush: () => '',
  });
  const file = join(t.testdir({}), 'events.jsonl');
  let ticks = 0;
  const ticking = setInterval(() => ticks++, 1);
  await appendLines(file, [{ type: 'final', text: '', spool: slow }]);
  clearInterval(ticking);
  // 320 ms of making; before, the loop ran only at each 1 MiB written (every 160 ms)
  t.ok(ticks >= 8, `a 1 ms timer ran ${ticks} times`);
  t.same(await readAll(file), [{ type: 'final', text: 'x'.repeat(64 * PIECE_CHARS) }]);
});
