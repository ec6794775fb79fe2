import fc from '../helpers/property.js';
import t from 'tap';
import { CancelledError, CrashError, MaxTurnsError, ProviderError, StdoutError, UsageError, ZeroError, toZeroError } from '../../lib/errors.js';

// PROTOCOL §3, "Exit codes and error codes".
const table: [string, () => ZeroError, { name: string; code: string; exitCode: number; recoverable: boolean }][] = [
  ['CrashError', () => new CrashError(new Error('boom')), { name: 'CrashError', code: 'crash', exitCode: 1, recoverable: false }],
  ['UsageError', () => new UsageError('bad flag'), { name: 'UsageError', code: 'usage_error', exitCode: 2, recoverable: true }],
  ['ProviderError', () => new ProviderError('401 Unauthorized'), { name: 'ProviderError', code: 'provider_error', exitCode: 3, recoverable: false }],
  ['MaxTurnsError', () => new MaxTurnsError(8), { name: 'MaxTurnsError', code: 'max_turns', exitCode: 4, recoverable: true }],
  ['CancelledError(SIGINT)', () => new CancelledError('SIGINT'), { name: 'CancelledError', code: 'cancelled', exitCode: 130, recoverable: true }],
  ['CancelledError(SIGTERM)', () => new CancelledError('SIGTERM'), { name: 'CancelledError', code: 'cancelled', exitCode: 143, recoverable: true }],
  ['CancelledError(SIGHUP)', () => new CancelledError('SIGHUP'), { name: 'CancelledError', code: 'cancelled', exitCode: 129, recoverable: true }],
  // Only the session record sees these two: stdout is what failed.
  ['CancelledError(SIGPIPE)', () => new CancelledError('SIGPIPE'), { name: 'CancelledError', code: 'cancelled', exitCode: 141, recoverable: true }],
  ['StdoutError', () => new StdoutError(Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC', errno: -28 })), { name: 'StdoutError', code: 'output_error', exitCode: 1, recoverable: false }],
];

for (const [what, make, expected] of table) {
  t.test(`${what} carries code ${expected.code}, exit ${expected.exitCode}, recoverable ${expected.recoverable}`, async (t) => {
    const error = make();
    t.ok(error instanceof ZeroError);
    t.ok(error instanceof Error);
    t.match(error, expected);
    t.type(error.message, 'string');
    t.ok(error.message.length > 0, 'has a message');
  });
}

t.test('usage and provider errors keep their message and cause', async (t) => {
  const cause = new Error('socket hang up');
  const usage = new UsageError('Use either --resume or --fork, not both.');
  t.equal(usage.message, 'Use either --resume or --fork, not both.');
  t.equal(usage.cause, undefined);
  const provider = new ProviderError('The provider failed.', { cause });
  t.equal(provider.message, 'The provider failed.');
  t.equal(provider.cause, cause);
});

t.test('the turn-limit message names the limit and the flag', async (t) => {
  t.equal(new MaxTurnsError(3).message, 'Reached the turn limit (3) before the model finished. Raise it with --max-turns.');
});

t.test('a cancellation names its signal', async (t) => {
  const error = new CancelledError('SIGTERM');
  t.equal(error.signal, 'SIGTERM');
  t.equal(error.message, 'Cancelled by SIGTERM.');
  t.equal(new CancelledError('SIGINT').message, 'Cancelled by SIGINT.');
  t.equal(new CancelledError('SIGHUP').message, 'Cancelled by SIGHUP.');
  t.equal(new CancelledError('SIGPIPE').message, 'Cancelled: the reader of stdout went away.');
});

t.test('a failed write to stdout names the error as the system does', async (t) => {
  const error = (code: string, errno?: number) => Object.assign(new Error(`write ${code}`), { code, errno });
  t.equal(new StdoutError(error('ENOSPC', -28)).message, 'Cannot write to stdout: ENOSPC (No space left on device)');
  t.equal(new StdoutError(error('EIO', -5)).message, 'Cannot write to stdout: EIO (I/o error)');
  t.equal(new StdoutError(error('EWHATEVER')).message, 'Cannot write to stdout: EWHATEVER', 'no errno: the code alone');
});

t.test('a crash says it is internal, keeps the detail and the original as cause', async (t) => {
  const original = new TypeError('x is undefined');
  const crash = new CrashError(original);
  t.equal(crash.message, 'Internal error: x is undefined');
  t.equal(crash.cause, original);
  t.equal(new CrashError('plain string').message, 'Internal error: plain string');
  t.equal(new CrashError(new Error('')).message, 'Internal error: unknown failure');
  t.equal(new CrashError('').message, 'Internal error: unknown failure');
});

t.test('ZeroError itself can carry any code', async (t) => {
  const error = new ZeroError('custom', 'Custom failure.', 5, false);
  t.match(error, { name: 'ZeroError', code: 'custom', message: 'Custom failure.', exitCode: 5, recoverable: false });
});

t.test('toZeroError returns a ZeroError unchanged', async (t) => {
  for (const [, make] of table) {
    const error = make();
    t.equal(toZeroError(error), error);
  }
  const base = new ZeroError('custom', 'Custom failure.', 5, false);
  t.equal(toZeroError(base), base);
});

t.test('toZeroError wraps anything else as a crash, exit 1, with the message', async (t) => {
  const original = new RangeError('index out of range');
  const wrapped = toZeroError(original);
  t.ok(wrapped instanceof CrashError);
  t.match(wrapped, { code: 'crash', exitCode: 1, recoverable: false, message: 'Internal error: index out of range' });
  t.equal(wrapped.cause, original);

  t.equal(toZeroError('just a string').message, 'Internal error: just a string');
  t.equal(toZeroError(42).message, 'Internal error: 42');
  t.equal(toZeroError(undefined).message, 'Internal error: undefined');
  t.equal(toZeroError(null).message, 'Internal error: null');
  t.equal(toZeroError({ reason: 'x' }).message, 'Internal error: [object Object]');
});

t.test('property: for ordinary thrown values, toZeroError gives a ZeroError with a protocol exit code', async (t) => {
  fc.assert(
    fc.property(
      fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.string().map((m) => new Error(m)), fc.array(fc.integer())),
      (thrown) => {
        const error = toZeroError(thrown);
        return error instanceof ZeroError && error.code === 'crash' && error.exitCode === 1 && error.message.startsWith('Internal error: ');
      },
    ),
  );
  t.pass('property held');
});

t.test('toZeroError never throws, even for values that cannot be turned into a string', async (t) => {
  const bare = Object.create(null) as object;
  const hostile = { toString: () => { throw new Error('no'); } };
  for (const thrown of [bare, hostile]) {
    let result: ZeroError | undefined;
    t.doesNotThrow(() => {
      result = toZeroError(thrown);
    }, 'toZeroError does not throw');
    if (result) t.match(result, { code: 'crash', exitCode: 1, recoverable: false });
  }
});
