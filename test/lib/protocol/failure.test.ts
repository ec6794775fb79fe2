import t from 'tap';
import { failureEvents } from '../../../lib/protocol/failure.js';
import { CancelledError, ProviderError } from '../../../lib/errors.js';

t.test('a failed run ends with its error event, then a run_end carrying its exit code', async (t) => {
  t.same(failureEvents(new CancelledError('SIGINT')), [
    { type: 'error', code: 'cancelled', message: 'Cancelled by SIGINT.', recoverable: true },
    { type: 'run_end', status: 'error', exitCode: 130 },
  ]);
  const [error, end] = failureEvents(new ProviderError('the server said 500'));
  t.match(error, { type: 'error', code: 'provider_error', message: 'the server said 500' });
  t.match(end, { type: 'run_end', status: 'error', exitCode: 3 });
});
