/**
 * Makes docs/render-example.png: a run recorded by `zero exec` with the
 * scripted provider (its session file, so the prompt shows), rendered by
 * `zero render --format html`, photographed in headless Chromium
 * (/usr/bin/chromium, Debian's package) driven by playwright-core, which
 * starts it with a new empty profile (its own --user-data-dir).
 *
 *   npm run build && node dist/bench/render-example.js [out.png]
 *
 * Not a benchmark: a tool for the README's picture (run by hand).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository's root, from bench/ or dist/bench/. */
function repoRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return resolve(here, here.split(/[\\/]/).includes('dist') ? '../..' : '..');
}

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const MATH = `export function average(values: number[]): number {
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}
`;

const SCRIPT = [
  {
    chunks: ['I will look for ', 'the function first.'],
    toolCalls: [{ id: 'call_1', name: 'grep', args: { pattern: 'function average', path: '.' } }],
    usage: { promptTokens: 812, completionTokens: 24 },
  },
  {
    chunks: ['Found it; reading the file.'],
    toolCalls: [{ id: 'call_2', name: 'read_file', args: { path: 'src/math.ts' } }],
    usage: { promptTokens: 901, completionTokens: 19 },
  },
  {
    chunks: [
      '`average([])` divides by zero: with no values, `sum / values.length` is `0 / 0`, which is `NaN`. ',
      'Return 0 (or throw) when `values` is empty: add `if (values.length === 0) return 0;` before the loop.',
    ],
    usage: { promptTokens: 1034, completionTokens: 61 },
  },
];

/** Records the demo run, renders it to HTML and writes a screenshot of the page to `out`. */
export async function makeRenderExample(out: string): Promise<void> {
  const root = repoRoot();
  const zero = join(root, 'bin', 'zero');
  const work = mkdtempSync(join(tmpdir(), 'zero-render-example-'));
  try {
    const project = join(work, 'project');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'src', 'math.ts'), MATH);
    const script = join(work, 'script.jsonl');
    writeFileSync(script, SCRIPT.map((turn) => JSON.stringify(turn)).join('\n') + '\n');
    const env: NodeJS.ProcessEnv = { ...process.env, ZERO_HOME: join(work, 'home'), XDG_CONFIG_HOME: join(work, 'config') };
    for (const name of Object.keys(env)) if (/^(ZERO_(?!HOME)|OPENAI_|ANTHROPIC_)/.test(name)) delete env[name];
    await run(process.execPath, [zero, 'exec', '-o', 'stream-json', '--provider', 'scripted', '--script', script, '-C', project, 'Why does average() return NaN sometimes?'], { env });
    const sessions = join(work, 'home', 'sessions');
    const [id] = readdirSync(sessions);
    const { stdout: html } = await run(process.execPath, [zero, 'render', join(sessions, id, 'events.jsonl'), '--format', 'html'], { env, maxBuffer: 64 * 1024 * 1024 });
    const page = join(work, 'transcript.html');
    writeFileSync(page, html);
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const tab = await browser.newPage({ viewport: { width: 900, height: 800 }, deviceScaleFactor: 1, colorScheme: 'light' });
      await tab.goto(pathToFileURL(page).href);
      mkdirSync(dirname(out), { recursive: true });
      await tab.screenshot({ path: out, fullPage: true });
    } finally {
      await browser.close();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(process.argv[2] ?? join(repoRoot(), 'docs', 'render-example.png'));
  await makeRenderExample(out);
  console.log(`wrote ${out}`);
}
