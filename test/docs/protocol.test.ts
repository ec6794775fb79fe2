import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { createInvariantChecker } from '../../lib/logs/invariants.js';
import { createSerializer } from '../../lib/output/serializer.js';
import { loadSchema, type SchemaKind } from '../../lib/protocol/schemas.js';
import type { OutputEvent } from '../../lib/protocol/types.js';
import { checkAgainstSchema } from '../../lib/protocol/validate.js';
import { isJsonObject } from '../../lib/protocol/json-object.js';
import { packageRoot } from '../../lib/package.js';

/**
 * docs/protocol.md is the reference client authors read: every ```jsonl example
 * in it must be what zero really accepts or writes. Info strings:
 * `jsonl input v1|v2`, `jsonl output v1|v2` (whole runs), `jsonl session v1|v2`
 * (a session file: prompts and runs), `jsonl json-format` and `text stdout` /
 * `text stderr` (the preceding output example rendered in the other formats).
 */

const root = packageRoot();
const docPath = join(root, 'docs', 'protocol.md');
const doc = readFileSync(docPath, 'utf8');

type Block = { lang: string; info: string[]; body: string; line: number };

/** The fenced blocks of a markdown text (fences at the start of a line), with the line their fence opens on. */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  let open: Block | undefined;
  markdown.split('\n').forEach((text, index) => {
    if (open) {
      if (/^```\s*$/.test(text)) {
        blocks.push(open);
        open = undefined;
      } else open.body += `${text}\n`;
      return;
    }
    const fence = /^```(\S*)(.*)$/.exec(text);
    if (fence) open = { lang: fence[1], info: fence[2].trim().split(/\s+/).filter(Boolean), body: '', line: index + 1 };
  });
  if (open) throw new Error(`docs/protocol.md: the block at line ${open.line} is never closed`);
  return blocks;
}

type Parsed = { events: Record<string, unknown>[]; problems: string[] };

const EVENT_BLOCKS = new Set(['input', 'output', 'session']);
const isInputType = (type: unknown) => type === 'prompt' || type === 'message';

/** Every problem of one jsonl example: not JSON, a line of another version, a schema violation, an order rule broken. */
function problemsOf(block: Block): Parsed {
  const problems: string[] = [];
  const events: Record<string, unknown>[] = [];
  const [kind, versionTag] = block.info;
  const at = (offset: number) => `docs/protocol.md:${block.line + 1 + offset}`;
  if (!EVENT_BLOCKS.has(kind) || !/^v[12]$/.test(versionTag ?? '') || block.info.length !== 2) {
    return { events, problems: [`${at(-1)}: a jsonl block says \`input|output|session v1|v2\` or \`json-format\`, not "${block.info.join(' ')}"`] };
  }
  const version = Number(versionTag.slice(1));
  const lines = block.body.replace(/\n$/, '').split('\n');
  if (lines.length === 0 || lines.every((line) => line.trim() === '')) problems.push(`${at(-1)}: empty example`);
  const order = createInvariantChecker();
  // A failure before the start is `error`, `run_end` and nothing else (§3.3, rule 7); the invariant checker
  // knows only runs that start, so such an example gets this rule instead.
  const preStart = kind === 'output' && /"type":"error"/.test(lines[0] ?? '');
  if (preStart && (lines.length !== 2 || !/"type":"run_end"/.test(lines[1]))) problems.push(`${at(0)}: a failure before the start is error, then run_end, and nothing else`);
  lines.forEach((line, offset) => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      problems.push(`${at(offset)}: not JSON: ${line}`);
      return;
    }
    if (!isJsonObject(value)) return void problems.push(`${at(offset)}: not a JSON object`);
    events.push(value);
    if (value.schemaVersion !== version) problems.push(`${at(offset)}: schemaVersion ${JSON.stringify(value.schemaVersion)} in a v${version} block`);
    const input = kind === 'input' || (kind === 'session' && isInputType(value.type));
    const schema = `${input ? 'input' : 'output'}${version === 2 ? '.v2' : ''}` as SchemaKind;
    const verdict = checkAgainstSchema(schema, value);
    if (!verdict.ok) problems.push(`${at(offset)}: ${schema} schema: ${verdict.field}: ${verdict.problem}`);
    if (!input && !preStart) for (const { problem } of order.event(value, offset)) problems.push(`${at(offset)}: ${problem}`);
  });
  if (kind !== 'input' && !preStart) for (const { lineNo, problem } of order.end()) problems.push(`${at(lineNo)}: ${problem}`);
  return { events, problems };
}

/** What `-o json` (stdout) or `-o text` (stdout, stderr) print for these output events. */
function rendered(format: 'json' | 'text', events: Record<string, unknown>[]): { stdout: string; stderr: string } {
  let stderr = '';
  const serialize = createSerializer(format, { write: (text: string) => (stderr += text) });
  const stdout = events.map((event) => serialize(event as OutputEvent)).join('');
  return { stdout, stderr };
}

const blocks = blocksOf(doc);
const jsonl = blocks.filter((block) => block.lang === 'jsonl');

t.test('every jsonl example validates against the shipped schema of its version, and output examples keep the order rules', async (t) => {
  t.ok(jsonl.length >= 10, 'the reference has its examples');
  for (const block of jsonl.filter((b) => b.info[0] !== 'json-format')) {
    t.same(problemsOf(block).problems, [], `the ${block.info.join(' ')} example at line ${block.line}`);
  }
});

t.test('the examples show every event type of each version', async (t) => {
  // every type is written now: permission_decision with --permission-prompt stdio (§12)
  const neverWritten = new Set<string>();
  for (const version of [1, 2] as const) {
    const suffix = version === 2 ? '.v2' : '';
    const typesOf = (kind: 'input' | 'output') =>
      (loadSchema(`${kind}${suffix}` as SchemaKind).oneOf as { properties: { type: { const: string } } }[]).map((branch) => branch.properties.type.const);
    const shown = (kind: string) => new Set(jsonl.filter((b) => b.info[0] === kind && b.info[1] === `v${version}`).flatMap((b) => problemsOf(b).events.map((e) => e.type)));
    for (const type of typesOf('output').filter((type) => !neverWritten.has(type))) t.ok(shown('output').has(type), `v${version} output example with ${type}`);
    for (const type of typesOf('input')) t.ok(shown('input').has(type), `v${version} input example with ${type}`);
  }
  const v2Inputs = jsonl.filter((b) => b.info[0] === 'input' && b.info[1] === 'v2').flatMap((b) => problemsOf(b).events);
  t.ok(v2Inputs.some((event) => Array.isArray(event.images)), 'a v2 message with images');
  const endings = (version: number) => new Set(jsonl.filter((b) => b.info[0] === 'output' && b.info[1] === `v${version}`).flatMap((b) => problemsOf(b).events.filter((e) => e.type === 'run_end').map((e) => e.exitCode)));
  t.same([...endings(1)].sort(), [0, 1, 143, 2, 3, 4].sort(), 'every v1 ending shown');
  t.same([...endings(2)].sort(), [0, 1, 130, 2, 3, 4].sort(), 'every v2 ending shown');
});

t.test('the json and text renderings are what zero prints for the run before them', async (t) => {
  const renderings = blocks.filter((b) => (b.lang === 'jsonl' && b.info[0] === 'json-format') || (b.lang === 'text' && ['stdout', 'stderr'].includes(b.info[0])));
  t.equal(renderings.length, 3, 'one json rendering, text stdout and stderr');
  for (const block of renderings) {
    const run = jsonl.filter((b) => b.info[0] === 'output' && b.line < block.line).at(-1);
    if (!run) return void t.fail(`no output example before line ${block.line}`);
    const { events } = problemsOf(run);
    const out = rendered(block.lang === 'jsonl' ? 'json' : 'text', events);
    t.equal(block.body, block.info[0] === 'stderr' ? out.stderr : out.stdout, `the ${block.lang} ${block.info.join(' ')} block at line ${block.line}`);
  }
});

t.test('a wrong example is caught', async (t) => {
  const good = jsonl.find((b) => b.info.join(' ') === 'output v2' && b.body.includes('"type":"checkpoint"'))!;
  const lines = good.body.trimEnd().split('\n');
  const broken = (body: string[], info = good.info): Block => ({ ...good, info, body: `${body.join('\n')}\n` });
  const withExtra = lines.map((line, i) => (i === 1 ? line.replace(/}$/, ',"extra":1}') : line));
  t.match(problemsOf(broken(withExtra)).problems.join('\n'), /Unrecognized key: "extra"/, 'an unknown field');
  t.match(problemsOf(broken(lines.slice(0, -1))).problems.join('\n'), /no run_end/, 'no run_end');
  t.match(problemsOf(broken([lines.at(-1)!, ...lines])).problems.join('\n'), /first event is run_end/, 'run_end first');
  t.match(problemsOf(broken(lines.filter((line) => !line.includes('"type":"tool_result"')))).problems.join('\n'), /has no tool_result/, 'an unanswered tool_call');
  t.match(problemsOf(broken(lines, ['output', 'v1'])).problems.join('\n'), /schemaVersion 2 in a v1 block/, 'a line of the other version');
  const failure = jsonl.find((b) => b.info.join(' ') === 'output v1' && b.body.startsWith('{"schemaVersion":1,"type":"error"'))!;
  t.match(problemsOf({ ...failure, body: failure.body.split('\n')[0] + '\n' }).problems.join('\n'), /error, then run_end/, 'a failure before the start without run_end');
  t.match(problemsOf(broken(lines, ['outputs', 'v2'])).problems.join('\n'), /a jsonl block says/, 'an unknown marker');
  t.match(problemsOf(broken(['{"schemaVersion":2,"type":"prompt"'], ['input', 'v2'])).problems.join('\n'), /not JSON/, 'a line that is not JSON');
});

/** The §-numbers of the reference's headings: `## §3 …`, `### §3.3 …`. */
const sections = new Set([...doc.matchAll(/^#{2,3} §(\d+(?:\.\d+)?) /gm)].map((match) => match[1]));

t.test('sections are numbered §1 … §N in order', async (t) => {
  const top = [...doc.matchAll(/^## §(\d+) /gm)].map((match) => Number(match[1]));
  t.same(top, top.map((_, i) => i + 1));
});

t.test('every docs/protocol.md §N cited in the source names a section', async (t) => {
  const files = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []));
  let citations = 0;
  for (const file of [...files('lib'), ...files('transforms')]) {
    for (const match of readFileSync(join(root, file), 'utf8').matchAll(/docs\/protocol\.md §(\d+(?:\.\d+)?)(?:[–-](\d+(?:\.\d+)?))?/g)) {
      citations += 1;
      for (const section of [match[1], match[2]].filter(Boolean)) t.ok(sections.has(section), `${file}: §${section}`);
    }
  }
  t.ok(citations > 0, 'the source cites the reference');
});
