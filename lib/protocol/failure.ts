import type { ZeroError } from '../errors.js';
import type { Event } from './types.js';

/** How a run that failed with `error` ends: its `error` event, then its `run_end` (unstamped). */
export function failureEvents(error: ZeroError): Event[] {
  return [
    { type: 'error', code: error.code, message: error.message, recoverable: error.recoverable },
    { type: 'run_end', status: 'error', exitCode: error.exitCode },
  ];
}
