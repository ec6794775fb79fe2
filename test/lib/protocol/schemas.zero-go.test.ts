import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zeroHere } from '../../helpers/cli.js';
import { jsonLines } from '../../helpers/zero.js';
import { repoPath } from '../../helpers/repo.js';

// Every shape Zero Go's exec writer emits in version 2 (internal/cli/exec_writer.go, internal/streamjson): one
// fixture per shape, each run through the log tools, which must accept it whole. protocol-doc-example.jsonl is the
// example of Zero's docs/STREAM_JSON_PROTOCOL.md (its tool_results without `name`), made one consistent run.

const FIXTURES = repoPath('test', 'fixtures', 'zero-go');
const fixtures = readdirSync(FIXTURES).filter((name) => name.endsWith('.jsonl'));

type Logged = { type: string; runId: string; exitCode?: number };

t.test('the fixtures cover the shapes of Zero Go\'s writer', async (t) => {
  t.same(fixtures.sort(), ['checkpoint-without-files.jsonl', 'early-errors.jsonl', 'final-without-text.jsonl', 'list-tools.jsonl', 'permission-events.jsonl', 'protocol-doc-example.jsonl', 'tool-call-args.jsonl']);
});

for (const name of fixtures) {
  const file = join(FIXTURES, name);
  const text = readFileSync(file, 'utf8');
  const events = jsonLines(text) as Logged[];
  const runIds = [...new Set(events.map((event) => event.runId))];

  t.test(`${name}: zero validate, replay, render, stats and redact accept it, nothing skipped`, async (t) => {
    const validated = await zeroHere(['validate', file]);
    t.equal(validated.code, 0, validated.stdout + validated.stderr);
    t.match(validated.stdout, `valid: ${events.length} events, ${runIds.length} run`);

    for (const runId of runIds) {
      const lines = text.split('\n').filter((line) => line.includes(`"runId":"${runId}"`));
      const replayed = await zeroHere(['replay', '--run', runId, file]);
      t.equal(replayed.stdout, lines.join('\n') + '\n', `run ${runId} replayed byte for byte`);
      t.equal(replayed.code, jsonLines(lines.at(-1)!)[0]!.exitCode, 'with its exit code');
    }

    const rendered = await zeroHere(['render', '-o', 'text', file]);
    t.equal(rendered.code, 0, rendered.stderr);
    t.notMatch(rendered.stdout, /skipped/i);
    t.equal(rendered.stdout.match(/^Run \d+: /gm)?.length, runIds.length, 'every run shown');

    const stats = await zeroHere(['stats', '-o', 'json', file]);
    t.equal(stats.code, 0, stats.stderr);
    const perRun = jsonLines(stats.stdout).filter((line) => line.type === 'run_stats');
    t.same(perRun.map((run) => run.run_id), runIds);
    t.equal(perRun.reduce((sum, run) => sum + Number(run.tool_calls), 0), events.filter((event) => event.type === 'tool_call').length, 'every tool_call counted');
    t.notMatch((await zeroHere(['stats', file])).stdout, /skipped/);

    const redacted = await zeroHere(['redact', file]);
    t.equal(redacted.code, 0, redacted.stderr);
    t.equal(redacted.stdout, text, 'nothing secret in it: written as it came');
  });
}

t.test('what a person reads of the Go shapes: raw arguments as they came, the early errors\' codes, no provider for --list-tools', async (t) => {
  const args = await zeroHere(['render', '-o', 'text', join(FIXTURES, 'tool-call-args.jsonl')]);
  t.match(args.stdout, /Arguments:\n {6}\{"path": "README\.md"\n/);
  t.match(args.stdout, /Arguments:\n {6}\[\n {8}"README\.md",/);
  const markdown = await zeroHere(['render', '-o', 'markdown', join(FIXTURES, 'tool-call-args.jsonl')]);
  t.match(markdown.stdout, /Arguments:\n\n```\n\{"path": "README\.md"\n```/, 'raw text is not marked as JSON');
  t.match(markdown.stdout, /Arguments:\n\n```json\n\[/);
  const replayed = await zeroHere(['replay', '-o', 'text', join(FIXTURES, 'tool-call-args.jsonl')]);
  t.match(replayed.stderr, /^\[tool\] read_file\n/, 'a raw string names no subject');

  const errors = jsonLines((await zeroHere(['stats', '-o', 'json', join(FIXTURES, 'early-errors.jsonl')])).stdout).filter((line) => line.type === 'run_stats');
  t.same(errors.map((run) => run.error_code), ['mcp_error', 'sandbox_error', 'specialist_error']);
  t.same(errors.map((run) => run.exit_code), [3, 3, 3]);

  const [listTools] = jsonLines((await zeroHere(['stats', '-o', 'json', join(FIXTURES, 'list-tools.jsonl')])).stdout);
  t.notOk(listTools && 'provider' in listTools, 'no provider invented');
  t.match(listTools, { outcome: 'success', exit_code: 0 });
});
