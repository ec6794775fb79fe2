import t from 'tap';
import fc from '../../helpers/property.js';
import { createRunDeltas, type DeltaWriter } from '../../../lib/logs/run-deltas.js';
import { createLogRedactor } from '../../../lib/logs/redact.js';
import type { LogLine } from '../../../lib/logs/framing.js';
import { redactText } from '../../../lib/redaction/index.js';
import { applyStep } from '../../../lib/streams.js';

type Json = Record<string, unknown>;
const WRITER: DeltaWriter<string, string> = {
  asCame: ({ original, fields, delta }) => original ?? JSON.stringify({ ...fields, delta }),
  shaped: (template, delta) => JSON.stringify({ ...template, delta }),
};
const KEY = ['ghp_', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('');

t.test('a run\'s deltas: a clean segment goes out as it came, asides in place; one with a secret re-split, the asides still all there', async (t) => {
  const delta = (type: string, text: string): [Json, string, string] => {
    const fields = { type, runId: 'r' };
    return [fields, text, JSON.stringify({ ...fields, delta: text })];
  };
  const out: string[] = [];
  const run = createRunDeltas<string, string>({}, WRITER, () => 1024, (line) => line.length);
  const lines = [delta('text', 'Hello '), delta('reasoning', 'hmm'), delta('text', 'world')];
  run.delta(...lines[0]!, out);
  run.aside('aside', out);
  run.delta(...lines[1]!, out);
  run.delta(...lines[2]!, out);
  t.same(out, [], 'kept until the segment ends');
  t.ok(run.deferring);
  run.settle(out);
  t.same(out, [lines[0]![2], 'aside', lines[1]![2], lines[2]![2]]);
  const secret: string[] = [];
  run.delta(...delta('text', `key ${KEY.slice(0, 9)}`), secret);
  run.aside('aside', secret);
  run.delta(...delta('text', `${KEY.slice(9)} ok`), secret);
  run.settle(secret);
  t.ok(secret.includes('aside'));
  t.equal(secret.filter((line) => line !== 'aside').map((line) => JSON.parse(line).delta).join(''), 'key [REDACTED] ok');
});

t.test('past its cap a segment goes through the stream redactor as it comes: what is kept stays bounded', async (t) => {
  const out: string[] = [];
  const run = createRunDeltas<string, string>({}, WRITER, () => 64, (line) => line.length);
  for (let n = 0; n < 20; n++) run.delta({ type: 'text', runId: 'r' }, `word${n} `, undefined, out);
  t.ok(out.length > 0, 'released before the segment ended');
  t.notOk(run.deferring);
  run.settle(out);
  t.equal(out.map((line) => JSON.parse(line).delta).join(''), Array.from({ length: 20 }, (_, n) => `word${n} `).join(''));
});

// The log redactor over random logs: runs interleaved, their text and reasoning split at random, other lines between.
const line = (value: Json): LogLine => ({ lineNo: 0, raw: JSON.stringify(value) });
const pieceArb = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '.', 'x', '\n'), maxLength: 12 });

t.test('property: any log of interleaved runs, a key split across one run\'s deltas with any lines between: no piece of the key, each run\'s text as redactText of its whole', async (t) => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ run: fc.constantFrom('ra', 'rb', 'rc'), kind: fc.constantFrom('text', 'reasoning', 'usage', 'other'), piece: pieceArb }), { maxLength: 30 }),
      fc.array(fc.integer({ min: 1, max: KEY.length - 1 }), { minLength: 1, maxLength: 4 }),
      fc.nat(),
      (lines, cutsDrawn, at) => {
        // the key, cut into pieces, as text deltas of run ra placed among the random lines
        const cuts = [...new Set(cutsDrawn)].sort((a, b) => a - b);
        const pieces = [0, ...cuts].map((cut, n) => KEY.slice(cut, cuts[n] ?? KEY.length));
        const items: LogLine[] = [];
        const text: Record<string, string> = {};
        const place = at % (lines.length + 1);
        lines.forEach((drawn, n) => {
          if (n === place) pieces.forEach((piece, p) => items.push(line({ schemaVersion: 2, type: 'text', runId: 'ra', delta: p === 0 ? ` ${piece}` : piece })));
          if (drawn.kind === 'usage') items.push(line({ schemaVersion: 2, type: 'usage', runId: drawn.run, promptTokens: 1, completionTokens: 1, totalTokens: 2 }));
          else if (drawn.kind === 'other') items.push({ lineNo: 0, raw: `[debug] ${drawn.piece.replace(/\n/g, ' ')}`, problem: 'not a JSON object' } as LogLine);
          else items.push(line({ schemaVersion: 2, type: drawn.kind, runId: drawn.run, delta: drawn.piece }));
        });
        if (place >= lines.length) pieces.forEach((piece, p) => items.push(line({ schemaVersion: 2, type: 'text', runId: 'ra', delta: p === 0 ? ` ${piece}` : piece })));
        for (const item of items) {
          const value = item.raw.startsWith('{') ? (JSON.parse(item.raw) as Json) : undefined;
          if (value && (value.type === 'text' || value.type === 'reasoning')) text[`${value.runId}/${value.type}`] = (text[`${value.runId}/${value.type}`] ?? '') + (value.delta as string);
        }
        const out = applyStep(createLogRedactor(), items).join('');
        for (let from = 0; from + 8 <= KEY.length; from += 4) if (out.includes(KEY.slice(from, from + 8))) return false;
        const written: Record<string, string> = {};
        for (const raw of out.trimEnd().split('\n')) {
          if (!raw.startsWith('{')) continue;
          const value = JSON.parse(raw) as Json;
          if (value.type === 'text' || value.type === 'reasoning') written[`${value.runId}/${value.type}`] = (written[`${value.runId}/${value.type}`] ?? '') + (value.delta as string);
        }
        // every line that is no delta goes out as it came (a re-split drops only empty deltas: no text)
        const outLines = out.split('\n').slice(0, -1);
        const others = items.map((item) => item.raw).filter((raw) => !/"type":"(?:text|reasoning)"/.test(raw));
        return Object.keys(text).every((key) => (written[key] ?? '') === redactText(text[key]!)) && others.every((raw) => outLines.includes(raw));
      },
    ),
    { numRuns: 300 },
  );
});
