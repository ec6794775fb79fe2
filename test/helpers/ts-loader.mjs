// tap's --import for every test file: tsx for a TypeScript test (`tap test/a.test.ts`, test:coverage); nothing
// for the compiled tests in dist/test/ that npm test runs, which start 0.4 s faster each without a loader.
if (!/\.[cm]?js$/.test(process.argv[1] ?? '')) await import('tsx');
