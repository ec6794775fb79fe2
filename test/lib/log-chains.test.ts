import t from 'tap';
import { KEY, RUN, runId } from '../helpers/split-key-run.js';
import { redactLogChain, renderChain, replayChain, statsChain, validateLogChain } from '../../lib/log-chains.js';
import { redactLogChain as ownRedactLogChain } from '../../lib/logs/redact-chain.js';
import { through } from '../helpers/streams.js';


t.test('the log chains are one module for a program that embeds them: zero redact\'s among them', async (t) => {
  t.equal(redactLogChain, ownRedactLogChain);
});

t.test('validateLogChain: the report, and the summary once it ended', async (t) => {
  const { chain, summary } = validateLogChain();
  t.equal((await through<Buffer>(chain, [Buffer.from(RUN)])).join(''), 'valid: 5 events, 1 run\n');
  t.same(summary(), { valid: true, events: 5, runs: 1, problems: 0 });
});

t.test('statsChain: per-run totals at the end', async (t) => {
  const out = (await through<Buffer>(statsChain({ format: 'json' }), [Buffer.from(RUN)])).join('');
  const [stats, cost] = out.trimEnd().split('\n').map((line) => JSON.parse(line));
  t.match(stats, { type: 'run_stats', run_id: runId, model_turns: 1, outcome: 'success' });
  t.match(cost, { type: 'cost_totals' });
});

t.test('replayChain: the run as exec wrote it (redacted again), under a new runId if asked, paced if asked', async (t) => {
  const replayed = replayChain({ newRunId: 'run_20261201111111_zzzzzz', delay: 5 });
  const out = (await through<Buffer>(replayed.chain, [Buffer.from(RUN)])).join('');
  const events = out.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  t.ok(events.every((event) => event.runId === 'run_20261201111111_zzzzzz' && event.schemaVersion === 1));
  t.notMatch(out, KEY.slice(4, 10), 'the first half of the split key');
  t.notMatch(out, KEY.slice(10, 22), 'the second half');
  t.equal(events.filter((event) => event.type === 'text').map((event) => event.delta).join(''), 'The key is [REDACTED].');
  t.equal(replayed.pick.chosen, runId);
  t.equal(replayed.pick.exitCode, 0);
});

t.test('renderChain: the transcript in Markdown (the default) or HTML, titled by its source, the split key redacted', async (t) => {
  const md = (await through<Buffer>(renderChain({ source: 'run.jsonl' }), [Buffer.from(RUN)])).join('');
  t.match(md, /^# Zero transcript: run\.jsonl\n\n## Run 1: `run_20261201000000_abcdef`/);
  t.match(md, '### Final answer\n\ndone');
  t.notMatch(md, KEY.slice(4, 16));
  const html = (await through<Buffer>(renderChain({ format: 'html' }), [Buffer.from(RUN)])).join('');
  t.match(html, /^<!doctype html>[\s\S]*<title>Zero transcript<\/title>[\s\S]*<\/html>\n$/);
  t.notMatch(html, KEY.slice(4, 16));
});
