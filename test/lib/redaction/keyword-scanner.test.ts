import t from 'tap';
import fc from '../../helpers/property.js';
import { keywordGroups, keywordHitScanners, type KeywordHitScanner } from '../../../lib/redaction/keyword-scanner.js';

/** No keyword. */
const NO_KEYWORD = Number.MIN_SAFE_INTEGER;

/** A scanner of the latest keyword start in each piece (relative to its start; NO_KEYWORD: none), from the hits. */
function latestStarts(keywords: readonly string[]) {
  const factory = keywordHitScanners(keywords);
  return () => {
    const hits: KeywordHitScanner = factory();
    return {
      scan(piece: string): number {
        let last = NO_KEYWORD;
        hits.scan(piece, (start) => (last = Math.max(last, start)));
        return last;
      },
      reset: () => hits.reset(),
    };
  };
}
import { keywordSource } from '../../../lib/redaction/prefilter.js';

const KEYWORDS = ['sk-', 'sk-ant-', 'key', 'api-key', 'token', 'private key', 'ab', 'bc', '://', '\\u'];

/** Where the last keyword starts in the whole text, as a regex with the `i` flag finds it (NO_KEYWORD: none). */
function lastKeywordByRegex(text: string, keywords = KEYWORDS): number {
  const regex = new RegExp(keywordSource(keywords), 'gi');
  let last = NO_KEYWORD;
  for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
    last = match.index;
    regex.lastIndex = match.index + 1;
  }
  return last;
}

/** The pieces scanned in turn: the latest keyword start, as a position in the whole text. */
function scanPieces(pieces: string[], keywords = KEYWORDS): number {
  const scanner = latestStarts(keywords)();
  let start = 0;
  let last = NO_KEYWORD;
  for (const piece of pieces) {
    const at = scanner.scan(piece);
    if (at !== NO_KEYWORD) last = Math.max(last, start + at);
    start += piece.length;
  }
  return last;
}

t.test('a keyword is found where it starts, relative to the piece it ends in', async (t) => {
  const scanner = latestStarts(KEYWORDS)();
  t.equal(scanner.scan('plain words'), NO_KEYWORD);
  t.equal(scanner.scan('my token'), 3);
  t.equal(scanner.scan(' and s'), NO_KEYWORD, 'a keyword still arriving is not found yet');
  t.equal(scanner.scan('k-live'), -1, 'found in the piece it ends in, starting one character before it');
});

t.test('the latest start wins: a short keyword ending inside a longer one', async (t) => {
  t.equal(scanPieces(['x-api-key']), 6, '`key` starts after `api-key`');
  t.equal(scanPieces(['abc']), 1, '`bc` overlaps `ab`');
  t.equal(scanPieces(['the private key']), 12);
});

t.test('case is ignored as a regex `i` flag ignores it: only ASCII letters fold', async (t) => {
  t.equal(scanPieces(['My TOKEN']), 3);
  t.equal(scanPieces(['Sk-Ant-x']), 0);
  t.equal(scanPieces(['\u017Fk-']), NO_KEYWORD, 'the long s (U+017F) is not an s');
  t.equal(scanPieces(['\u212Aey']), NO_KEYWORD, 'the Kelvin sign is not a k');
  t.equal(lastKeywordByRegex('\u017Fk- \u212Aey'), NO_KEYWORD, 'nor to the regex');
});

t.test('reset: no keyword spans the texts before and after', async (t) => {
  const scanner = latestStarts(KEYWORDS)();
  scanner.scan('to');
  scanner.reset();
  t.equal(scanner.scan('ken'), NO_KEYWORD);
  t.equal(scanner.scan(' token'), 1);
});

t.test('scanners from one factory keep their own state', async (t) => {
  const scanners = latestStarts(KEYWORDS);
  const a = scanners();
  const b = scanners();
  a.scan('tok');
  t.equal(b.scan('en'), NO_KEYWORD);
  t.equal(a.scan('en'), -3);
});

t.test('keywords must be ASCII', async (t) => {
  t.throws(() => latestStarts(['clé']), /not ASCII/);
  t.equal(scanPieces(['anything'], []), NO_KEYWORD, 'no keywords: nothing is found');
});

t.test('property: however the text is cut, the latest keyword is the one a regex finds in the whole', async () => {
  const alphabet = fc.constantFrom(...'skSK-antANTeyEYpiPI:/\\uUbcBC rvxzé\n'.split(''));
  await fc.assert(
    fc.property(fc.array(fc.array(alphabet, { maxLength: 12 }).map((chars) => chars.join('')), { maxLength: 10 }), (pieces) => {
      return scanPieces(pieces) === lastKeywordByRegex(pieces.join(''));
    }),
    { numRuns: 3000 },
  );
});

const GROUPS = [['sk-'], ['sk-ant-'], ['key', 'token'], ['api-key'], ['ab'], ['bc'], ['private key', '://', '\\u']];
/** Per group, whether a regex with the `i` flag finds one of its keywords in `text`. */
const groupsByRegex = (text: string) => GROUPS.map((keywords) => (new RegExp(keywordSource(keywords), 'i').test(text) ? 1 : 0));

t.test('keywordGroups: which groups have a keyword in the text, ignoring case as a regex does', async (t) => {
  const groups = keywordGroups(GROUPS);
  t.equal(groups.which('plain words'), undefined, 'none: no answer to make');
  t.same([...groups.which('an SK-ANT-key')!.groups], [1, 1, 1, 0, 0, 0, 0], 'a keyword inside a longer one is found too');
  t.same([...groups.which('X-Api-Key and abc')!.groups], [0, 0, 1, 1, 1, 1, 0], 'overlapping keywords are both found');
  t.equal(groups.which('\u017Fk- \u212Aey'), undefined, 'the long s and the Kelvin sign fold to nothing');
  t.same([...groups.which('a\\U0073')!.groups], [0, 0, 0, 0, 0, 0, 1]);
  t.ok(groups.some('my token'));
  t.notOk(groups.some('tok en'));
});

t.test('property: keywordGroups answers as a regex of each group does', async () => {
  const groups = keywordGroups(GROUPS);
  const alphabet = fc.constantFrom(...'skSK-antANTeyEYpiPI:/\\uUbcBC rvxzé\n'.split(''));
  await fc.assert(
    fc.property(fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join('')), (text) => {
      const expected = groupsByRegex(text);
      return [...(groups.which(text)?.groups ?? GROUPS.map(() => 0))].join() === expected.join() && groups.some(text) === expected.includes(1);
    }),
    { numRuns: 3000 },
  );
});

/** Where each keyword of `keywords` begins in `text`, ascending, as a regex with the `i` flag finds them (overlaps too). */
function startsByRegex(text: string, keywords: readonly string[]): number[] {
  const starts: number[] = [];
  for (const keyword of new Set(keywords.map((k) => k.toLowerCase()))) {
    const regex = new RegExp(keywordSource([keyword]), 'gi');
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      starts.push(match.index);
      regex.lastIndex = match.index + 1;
    }
  }
  return starts.sort((a, b) => a - b);
}

t.test('keywordGroups.which with starts: where each located group\'s keywords begin, in order', async (t) => {
  const groups = keywordGroups(GROUPS, [0, 2]);
  const found = groups.which('a KEY, then tokenkey and sk-', true)!;
  t.same([...found.groups], [1, 0, 1, 0, 0, 0, 0]);
  t.same(found.starts, [[25], [2, 12, 17]], 'every key and token, glued or not, any case; the other located group apart');
  t.same(groups.which('a KEY', false)!.starts, [], 'not asked: not told');
  t.equal(groups.which('plain', true), undefined);
  // a group keyword inside another keyword's middle ends before it begins: still in order
  const nested = keywordGroups([['xabcx', 'ab', 'c']], [0]);
  t.same(nested.which('xabcx', true)!.starts, [[0, 1, 3]]);
});

t.test('property: which tells every start of each located group, as a regex finds them', async () => {
  const located = [1, 2, 6];
  const groups = keywordGroups(GROUPS, located);
  const alphabet = fc.constantFrom(...'kKeEyYtoTOn sk-ant-\\u'.split(''));
  await fc.assert(
    fc.property(fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join('')), (text) => {
      const starts = groups.which(text, true)?.starts ?? located.map(() => []);
      return located.every((group, at) => starts[at]!.join() === startsByRegex(text, GROUPS[group]!).join());
    }),
    { numRuns: 3000 },
  );
});

t.test('property: an automaton too big for 16-bit rows finds what a regex finds', async () => {
  // 520 keywords of 6 characters from 40 symbols: 2,641 states of 41 classes
  const symbols = 'abcdefghijklmnopqrstuvwxyz0123456789-_.:';
  const keywords = Array.from({ length: 1500 }, (_, n) => Array.from({ length: 6 }, (_, i) => symbols[(n * 7 + i * (n % 13) + i * i) % 40]).join(''));
  const groups = keywordGroups([keywords], [0]);
  await fc.assert(
    fc.property(fc.array(fc.constantFrom(...keywords, ...symbols.split(''), 'X', 'é'), { maxLength: 12 }), (parts) => {
      const text = parts.join('');
      const found = groups.which(text, true);
      const starts = found?.starts[0] ?? [];
      return starts.join() === startsByRegex(text, keywords).join() && (found?.groups[0] ?? 0) === (starts.length > 0 ? 1 : 0) && scanPieces([text], keywords) === lastKeywordByRegex(text, keywords);
    }),
    { numRuns: 300 },
  );
});
