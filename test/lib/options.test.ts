import t from 'tap';
import { checkOptions, checkRequired, checkValue, kindOf, oneOf, positiveInteger, strings } from '../../lib/options.js';
import * as zero from '../../lib/index.js';

/** What `make` throws (undefined when it does not). */
function thrown(make: () => unknown): Error | undefined {
  try {
    make();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

t.test('checkOptions: each option set is checked, an unset one is not, and none at all is {}', async (t) => {
  const checks = { format: oneOf(['a', 'b']), secrets: strings };
  t.same(checkOptions('f', undefined, checks), {});
  const given = { format: 'a', secrets: ['x'], other: 5 };
  t.equal(checkOptions('f', given, checks), given, 'the options themselves come back; options no check names pass');
  t.throws(() => checkOptions('f', { format: 'c' }, checks), new TypeError('f: options.format must be one of "a", "b", not another string.'));
  t.throws(() => checkOptions('f', null as never, checks), new TypeError('f: options must be an object, not null.'));
  t.throws(() => checkOptions('f', { secrets: 'x' }, checks, 'options.redaction'), new TypeError('f: options.redaction.secrets must be an array of strings, not a string.'));
  t.throws(() => checkRequired('f', {}, ['provider']), new TypeError('f: options.provider is required.'));
  t.throws(() => checkValue('f', 'n', 0, positiveInteger), new TypeError('f: n must be a positive integer, not a number.'));
});

t.test('a message says what a value is, never the value: it may be a credential', async (t) => {
  t.equal(kindOf([1, 'a', null]), 'an array of number, string, null');
  t.equal(kindOf([]), 'an array');
  t.equal(kindOf(Buffer.from('x')), 'an object');
  t.equal(kindOf(undefined), 'undefined', 'a value left out reads as such');
  const key = 'sk-proj-Q7xL1spNxnyVmihA_2O76UMFxFkM';
  const asString = thrown(() => zero.redact({ secrets: key as never }));
  t.type(asString, TypeError);
  t.notMatch(asString?.message, key);
  const asFormat = thrown(() => zero.outputChain({ format: key as never }));
  t.match(asFormat?.message, /not another string\.$/);
  t.notMatch(asFormat?.message, key);
});

/** Each factory of the package, made with one option wrong, as an embedding program might: the TypeError it throws. */
const WRONG: [string, () => unknown, RegExp][] = [
  ['split', () => zero.split({ maxLineBytes: '1MB' as never }), /^split: options\.maxLineBytes must be a positive integer, not a string\.$/],
  ['parse', () => zero.parse({ label: 5 as never }), /^parse: options\.label must be a string/],
  ['validate', () => zero.validate('events' as never), /^validate: kind must be one of "input", "output"/],
  ['redact', () => zero.redact({ secrets: [Buffer.from('sk-proj-abc')] as never }), /^redact: options\.secrets must be an array of strings, not an array of object\.$/],
  ['stamp', () => zero.stamp({ schemaVersion: 3 as never }), /^stamp: options\.schemaVersion must be 1, 2 or a function/],
  ['stamp', () => zero.stamp({ runId: '' }), /^stamp: options\.runId must be a non-empty string/],
  ['serialize', () => zero.serialize('yaml' as never), /^serialize: format must be one of "text", "json", "stream-json", not another string\.$/],
  ['outputChain', () => zero.outputChain({ format: 'yaml' as never }), /^outputChain: options\.format must be one of/],
  ['outputChain', () => zero.outputChain({ heartbeatMs: -1 }), /^outputChain: options\.heartbeatMs must be a positive number/],
  ['inputChain', () => zero.inputChain({ maxLineBytes: 0 }), /^inputChain: options\.maxLineBytes must be a positive integer/],
  ['execChain', () => zero.execChain(undefined as never), /^execChain: options\.input is required\.$/],
  ['execChain', () => zero.execChain({ input: { format: 'text' } } as never), /^execChain: options\.input\.prompt must be a string/],
  ['execChain', () => zero.execChain({ input: { format: 'text', prompt: 'hi' }, output: { format: 'yaml' } } as never), /^execChain: options\.output\.format must be one of/],
  ['execChain', () => zero.execChain({ input: { format: 'text', prompt: 'hi' }, cwd: '/' } as never), /^execChain: options\.provider is required\.$/],
  ['agent', () => zero.agent({ provider: {} as never, cwd: '.' }), /^agent: options\.provider must be a provider/],
  ['agent', () => zero.agent({ provider: new zero.ScriptedProvider([]), cwd: '/', maxTurns: 0 }), /^agent: options\.maxTurns must be a positive integer/],
  ['redactLogChain', () => zero.redactLogChain({ redaction: { secrets: 'x' as never } }), /^redactLogChain: options\.redaction\.secrets must be an array of strings/],
  ['validateLogChain', () => zero.validateLogChain({ framing: 'jsonl' as never }), /^validateLogChain: options\.framing must be one of "lines", "values", "auto"/],
  ['statsChain', () => zero.statsChain({ format: 'csv' as never }), /^statsChain: options\.format must be one of/],
  ['replayChain', () => zero.replayChain({ delay: -5 }), /^replayChain: options\.delay must be a number, 0 or more/],
  ['renderChain', () => zero.renderChain({ format: 'pdf' as never }), /^renderChain: options\.format must be one of "markdown", "html", "text"/],
  ['redactValue', () => zero.redactValue({ a: 'x' }, { secrets: 'sk-proj-abc' as never }), /^redaction: options\.secrets must be an array of strings, not a string\.$/],
];

t.test('every factory of the package refuses a wrong option when it is called, with a TypeError that names it', async (t) => {
  for (const [factory, make, message] of WRONG) {
    const error = thrown(make);
    t.type(error, TypeError, factory);
    t.match(error?.message, message, factory);
  }
});

t.test('the options the docs show are taken', async (t) => {
  for (const made of [
    zero.split({ maxLineBytes: 1024, label: 'input' }),
    zero.validate('output', { label: 'log' }),
    zero.redact({ secrets: ['sk-proj-abc'] }),
    zero.stamp({ runId: 'sess_EnZUTZQgBMRI', schemaVersion: () => 2 }),
    zero.serialize('text', { stderr: { write: () => true } }),
    zero.outputChain({ format: 'json', secrets: [], schemaVersion: 2, signal: new AbortController().signal }),
    zero.statsChain({ format: 'json', framing: 'auto', redaction: { secrets: ['sk-proj-abc'] } }),
    zero.replayChain({ delay: 0, newRunId: 'run_x' }).chain,
    zero.renderChain({ format: 'html', source: 'a.jsonl' }),
  ]) {
    t.ok(typeof (made as { pipe?: unknown }).pipe === 'function');
    (made as { destroy(): void }).destroy();
  }
});
