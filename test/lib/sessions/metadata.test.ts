import t from 'tap';
import fc from '../../helpers/property.js';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkMetadata, metadataFromEvents, readMetadata, titleFromPrompt, writeMetadata, type SessionMetadata } from '../../../lib/sessions/metadata.js';

const id = 'zero_20240102030405_abc123';
const base: SessionMetadata = {
  id,
  title: 'Inspect this repo',
  cwd: '/work',
  provider: 'scripted',
  model: 'scripted',
  createdAt: '2024-01-02T03:04:05.000Z',
  updatedAt: '2024-01-02T03:04:05.000Z',
  eventCount: 0,
};

t.test('the title is the first 80 characters of the prompt, whitespace collapsed', async (t) => {
  t.equal(titleFromPrompt('  Inspect\n\nthis \t repo.  '), 'Inspect this repo.');
  t.equal(titleFromPrompt('x'.repeat(100)), 'x'.repeat(80));
  t.equal(titleFromPrompt(`${'a '.repeat(39)}bcdef`), `${'a '.repeat(39)}bc`);
  t.equal(titleFromPrompt(''), '');
});

t.test('the title of a long prompt is the one its first words give, whatever the spaces and characters', async (t) => {
  const whole = (prompt: string) => Array.from(prompt.replace(/\s+/g, ' ').trim()).slice(0, 80).join('');
  const piece = fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom(' ', '\n\n', '\t ', '😀', 'x'.repeat(170), '😀'.repeat(90), ' '.repeat(300)));
  fc.assert(fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => titleFromPrompt(pieces.join('')) === whole(pieces.join(''))));
  t.equal(titleFromPrompt('a\n\n'.repeat(1_000_000)), 'a '.repeat(40), 'a million one-letter lines');
});

t.test('the title never ends in half a surrogate pair', async (t) => {
  const title = titleFromPrompt(`${'x'.repeat(79)}😀😀`);
  t.equal(title, `${'x'.repeat(79)}😀`);
  t.equal(Array.from(title).length, 80);
});

t.test('metadata round-trips, fields in a fixed order, optional ones only when set', async (t) => {
  const dir = t.testdir({});
  await writeMetadata(dir, { ...base, updatedAt: '2024-01-02T04:00:00.000Z' });
  const text = await readFile(join(dir, 'metadata.json'), 'utf8');
  t.same(Object.keys(JSON.parse(text)), ['id', 'title', 'cwd', 'provider', 'model', 'createdAt', 'updatedAt', 'eventCount']);
  t.ok(text.endsWith('}\n'));
  t.same(await readMetadata(dir, id), { ...base, updatedAt: '2024-01-02T04:00:00.000Z' });

  const fork = { ...base, forkedAt: 2, parentId: 'zero_20240101000000_parent' };
  await writeMetadata(dir, fork);
  t.same(Object.keys(JSON.parse(await readFile(join(dir, 'metadata.json'), 'utf8'))), ['id', 'title', 'cwd', 'provider', 'model', 'parentId', 'forkedAt', 'createdAt', 'updatedAt', 'eventCount']);
  t.same(await readMetadata(dir, id), fork);
});

t.test('tags (--tag) are kept after the title, and must be strings', async (t) => {
  const dir = t.testdir({});
  const tagged = { ...base, tags: ['ci', 'nightly'] };
  await writeMetadata(dir, tagged);
  t.same(Object.keys(JSON.parse(await readFile(join(dir, 'metadata.json'), 'utf8'))).slice(0, 3), ['id', 'title', 'tags']);
  t.same(await readMetadata(dir, id), tagged);
  t.equal(checkMetadata({ ...base, tags: 'ci' }, id), undefined);
  t.equal(checkMetadata({ ...base, tags: ['ci', 2] }, id), undefined);
});

t.test('replacement is atomic: readers always see whole metadata, and no temporary file remains', async (t) => {
  const dir = t.testdir({});
  await writeMetadata(dir, base);
  let writing = true;
  const reads: Promise<void>[] = [];
  const reader = (async () => {
    while (writing) {
      const text = await readFile(join(dir, 'metadata.json'), 'utf8');
      const value = JSON.parse(text) as SessionMetadata; // throws if ever torn
      t.equal(value.id, id);
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  reads.push(reader);
  for (let i = 1; i <= 200; i++) await writeMetadata(dir, { ...base, title: 'x'.repeat(i * 50), eventCount: i });
  writing = false;
  await Promise.all(reads);
  t.same(await readdir(dir), ['metadata.json']);
  t.equal((await readMetadata(dir, id)).eventCount, 200);
});

t.test('concurrent replacements leave one of them whole', async (t) => {
  const dir = t.testdir({});
  await Promise.all(Array.from({ length: 20 }, (_, i) => writeMetadata(dir, { ...base, eventCount: i })));
  t.same(await readdir(dir), ['metadata.json']);
  t.ok((await readMetadata(dir, id)).eventCount < 20);
});

t.test('a failed write removes its temporary file', async (t) => {
  const dir = t.testdir({ 'metadata.json': { 'in-the-way': 'a folder cannot be renamed over' } });
  await t.rejects(writeMetadata(dir, base));
  t.same(await readdir(dir), ['metadata.json']);
});

t.test('reading: missing is ENOENT, malformed JSON or a wrong shape is an error saying so', async (t) => {
  const dir = t.testdir({});
  await t.rejects(readMetadata(dir, id), { code: 'ENOENT' });
  await writeFile(join(dir, 'metadata.json'), '{"id":');
  await t.rejects(readMetadata(dir, id), /metadata.json is not valid JSON/);
  await writeFile(join(dir, 'metadata.json'), JSON.stringify({ ...base, id: 'zero_20240102030405_zzzzzz' }));
  await t.rejects(readMetadata(dir, id), /does not describe session/);
});

t.test('the shape check', async (t) => {
  t.same(checkMetadata(base, id), base);
  t.equal(checkMetadata(null, id), undefined);
  t.equal(checkMetadata([], id), undefined);
  t.equal(checkMetadata({ ...base, title: 1 }, id), undefined);
  t.equal(checkMetadata({ ...base, eventCount: -1 }, id), undefined);
  t.equal(checkMetadata({ ...base, eventCount: 1.5 }, id), undefined);
  t.equal(checkMetadata({ ...base, parentId: 3 }, id), undefined);
  t.equal(checkMetadata({ ...base, forkedAt: 'x' }, id), undefined);
  t.same(checkMetadata({ ...base, parentId: 'zero_20240101000000_parent', forkedAt: 0 }, id), { ...base, parentId: 'zero_20240101000000_parent', forkedAt: 0 });
});

t.test('metadata rebuilt from events: title, cwd, provider and model from what they tell; created when the id says', async (t) => {
  const events = [
    { type: 'prompt', content: '  Fix   the\ntests ' },
    { type: 'run_start', cwd: '/repo', provider: 'openai', model: 'gpt-x' },
    { type: 'text', delta: 'ok' },
  ];
  const updated = new Date('2026-11-30T07:00:00Z');
  t.same(metadataFromEvents('zero_20261130065406_h8c50c', events, updated), {
    id: 'zero_20261130065406_h8c50c',
    title: 'Fix the tests',
    cwd: '/repo',
    provider: 'openai',
    model: 'gpt-x',
    createdAt: '2026-11-30T06:54:06.000Z',
    updatedAt: '2026-11-30T07:00:00.000Z',
    eventCount: 3,
  });
  t.match(metadataFromEvents('zero_20261130065406_h8c50c', [], updated), { title: '(no prompt recorded)', cwd: '', provider: 'unknown', model: 'unknown', eventCount: 0 });
  const withImages = [{ schemaVersion: 2, type: 'message', role: 'user', content: 'What is in this picture?', images: [] }, ...events.slice(1)];
  t.match(metadataFromEvents('zero_20261130065406_h8c50c', withImages, updated), { title: 'What is in this picture?' }, 'a prompt recorded as a version 2 message (it had images) titles the session too');
});

t.test('profile and script, when a run recorded them, are kept and checked like the other fields', async (t) => {
  const { checkMetadata } = await import('../../../lib/sessions/metadata.js');
  const base = { id: 'zero_20261201000000_abc123', title: 't', cwd: '/', provider: 'scripted', model: 'm', createdAt: 'x', updatedAt: 'x', eventCount: 0 };
  t.same(checkMetadata({ ...base, script: '/s.jsonl', profile: 'local' }, base.id), { ...base, script: '/s.jsonl', profile: 'local' });
  t.equal(checkMetadata({ ...base, script: 3 }, base.id), undefined);
});
