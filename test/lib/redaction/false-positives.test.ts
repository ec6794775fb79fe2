/**
 * False positives: ordinary code and docs that merely mention keys, tokens
 * and passwords must come out byte-identical. The redactor runs over this
 * repo's own sources (not test/, which holds fake secrets on purpose) and a
 * deterministic sample of node_modules, and every replacement is counted.
 *
 * The sample leaves out test and fixture folders (fast-uri's tests, for one,
 * hold `uri://foo:bar@…` credentials on purpose) and packages whose docs show
 * credential literals as examples (@types/node's `new URL('https://abc:xyz@…')`,
 * smart-buffer's `password: 'secret123'`, npm-registry-fetch's PEM block):
 * those are secret-shaped, and redacting them is right.
 */
import t from 'tap';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { redactText } from '../../../lib/redaction/text.js';
import { REPO } from '../../helpers/repo.js';

const ROOT = REPO;
const TEXT_FILE = /\.(?:[cm]?js|[cm]?ts|md)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'test', 'tests', '__tests__', 'fixture', 'fixtures', 'commonjs', 'dist-test']);

/** Text files under `dir`, in sorted order, until `budget` bytes are taken (whole files; Infinity: all). */
function sample(dir: string, budget = Infinity, include = TEXT_FILE): string[] {
  const files: string[] = [];
  let bytes = 0;
  const walk = (at: string): void => {
    for (const name of readdirSync(at).sort()) {
      if (bytes >= budget) return;
      const path = join(at, name);
      const stat = statSync(path);
      if (stat.isDirectory()) {
        if (!SKIPPED_DIRS.has(name)) walk(path);
      } else if (include.test(name) && !name.endsWith('.map')) {
        files.push(path);
        bytes += stat.size;
      }
    }
  };
  walk(dir);
  return files;
}

const exists = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

type Finding = { file: string; replacements: number; lines: string[] };

function scan(files: readonly string[]): { bytes: number; findings: Finding[] } {
  let bytes = 0;
  const findings: Finding[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    bytes += Buffer.byteLength(text);
    const out = redactText(text);
    if (out === text) continue;
    const replacements = out.split('[REDACTED]').length - text.split('[REDACTED]').length;
    const before = text.split('\n');
    const after = out.split('\n');
    const lines = before.flatMap((line, n) => (line === after[n] ? [] : [`${n + 1}: ${line.trim().slice(0, 160)}`])).slice(0, 3);
    findings.push({ file: relative(ROOT, file), replacements, lines });
  }
  return { bytes, findings };
}

const report = (findings: Finding[]): string[] => findings.flatMap((f) => [`${f.file} (${f.replacements})`, ...f.lines.map((l) => `  ${l}`)]);

t.test("this repo's own sources: lib/, transforms/, bin/, bench/", async (t) => {
  const files = ['lib', 'transforms', 'bench'].flatMap((dir) => sample(join(ROOT, dir)));
  files.push(...sample(join(ROOT, 'bin'), Infinity, /^[^.]+$|\.[cm]?js$/));
  const { bytes, findings } = scan(files);
  t.ok(files.length > 40, `${files.length} files, ${(bytes / 1e3).toFixed(0)} kB`);
  t.same(report(findings), [], 'no replacements');
});

/** Package folders and how many bytes of each: ordinary code, types and docs. */
const NODE_MODULES_SAMPLE: ReadonlyArray<{ dir: string; budget: number; include?: RegExp }> = [
  { dir: 'typescript/lib', budget: 1.5e6, include: /^lib\..*\.d\.ts$/ },
  { dir: 'ajv/lib', budget: 0.8e6 },
  { dir: 'commander', budget: 0.3e6 },
  { dir: 'split2', budget: 0.1e6 },
  { dir: '@tapjs', budget: 1e6 },
  { dir: 'openai/src', budget: 1e6 },
  { dir: '@anthropic-ai/sdk/src', budget: 1e6 },
];

t.test('a sample of node_modules', async (t) => {
  const files: string[] = [];
  for (const { dir, budget, include } of NODE_MODULES_SAMPLE) {
    const path = join(ROOT, 'node_modules', dir);
    if (exists(path)) files.push(...sample(path, budget, include));
    else t.comment(`not installed: ${dir}`);
  }
  const { bytes, findings } = scan(files);
  t.ok(bytes > 2e6, `${files.length} files, ${(bytes / 1e6).toFixed(2)} MB`);
  t.same(report(findings), [], 'no replacements');
});
