import t from 'tap';
import { MODES, compatSettings } from '../../../lib/cli/compat.js';

t.test("Zero's modes, in its order, with its turn limits", async (t) => {
  t.same(Object.keys(MODES), ['smart', 'deep', 'fast', 'large', 'precise']);
  t.same(Object.fromEntries(Object.entries(MODES).map(([name, mode]) => [name, mode.maxTurns])), { smart: undefined, deep: 50, fast: 15, large: undefined, precise: undefined });
});

t.test('--mode: its turn limit applies unless --max-turns is given; the warning says what does not apply', async (t) => {
  t.same(compatSettings({ mode: 'fast' }), {
    maxTurns: 15,
    warnings: ['--mode fast: its turn limit (15) applies; its model (claude-haiku-4.5) and reasoning effort (low) are not applied: zero-stream has no model catalog to map them to this provider. Choose the model with --model.'],
  });
  const explicit = compatSettings({ mode: 'fast', maxTurns: '4' });
  t.equal(explicit.maxTurns, undefined, '--max-turns wins');
  t.match(explicit.warnings[0], /^--mode fast: its model \(claude-haiku-4\.5\)/);
  t.same(compatSettings({ mode: ' SMART ' }).maxTurns, undefined, 'trimmed, any case, as Zero looks it up');
  t.match(compatSettings({ mode: ' SMART ' }).warnings, ['--mode smart: its model (claude-sonnet-4.5) and reasoning effort (medium) are not applied: zero-stream has no model catalog to map them to this provider. Choose the model with --model.']);
});

t.test('an unknown mode is a usage error listing the modes, as in Zero', async (t) => {
  for (const bad of ['turbo', '', 'constructor', '__proto__']) {
    t.throws(() => compatSettings({ mode: bad }), { code: 'usage_error', message: `Unknown mode "${bad}". Valid modes: smart, deep, fast, large, precise.` }, JSON.stringify(bad));
  }
});

t.test('--allow-escalation and --self-correct are accepted, each with a warning saying it changes nothing here', async (t) => {
  t.same(compatSettings({}), { maxTurns: undefined, warnings: [] });
  t.same(compatSettings({ allowEscalation: true, selfCorrect: true }).warnings, [
    '--allow-escalation changes nothing here: zero-stream has no escalate_model tool, so the run keeps its model.',
    "--self-correct changes nothing here: zero-stream does not run the project's tests or language servers after an edit to feed failures back to the model.",
  ]);
});
