/** A run whose key is split across two text deltas: what each log chain is first tried on. */
export const runId = 'run_20261201000000_abcdef';
export const logOf = (...events: object[]) => events.map((event) => `${JSON.stringify({ schemaVersion: 1, runId, ...event })}\n`).join('');
export const KEY = ['ghp_', 'Zy9Xw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa'].join('');
export const RUN = logOf(
  { type: 'run_start', cwd: '/repo', provider: 'scripted', model: 'm' },
  { type: 'text', delta: `The key is ${KEY.slice(0, 10)}` },
  { type: 'text', delta: `${KEY.slice(10)}.` },
  { type: 'final', text: 'done' },
  { type: 'run_end', status: 'success', exitCode: 0 },
);
