// tap's --import for every test file: tsx for a TypeScript test (`tap test/a.test.ts`, test:coverage); nothing
// for the compiled tests in dist/test/ that npm test runs, which start 0.4 s faster each without a loader.
if (!/\.[cm]?js$/.test(process.argv[1] ?? '')) await import('tsx');

// tap's process-info hook puts itself into every process a test starts: into NODE_OPTIONS, and again at each spawn
// (through process-on-spawn's shared hooks). With coverage off (npm test) nothing reads what it records, and it costs
// each spawned bin/zero about 0.9 s of CPU, more than the run itself (its loader sees every module), so the processes
// the tests start go without it. Coverage runs keep it.
if (process.env._TAPJS_PROCESSINFO_COVERAGE_ === '0') {
  const spawnHooks = globalThis[Symbol.for('process-on-spawn@*:singletonId')];
  if (spawnHooks) spawnHooks.listeners.length = 0;
  const options = (process.env.NODE_OPTIONS ?? '').replace(/"?--import=[^\s"]*@tapjs\/processinfo[^\s"]*"?/g, '').trim();
  if (options === '') delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = options;
}
