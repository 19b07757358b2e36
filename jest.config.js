/** Tests mirror src/ and connectors/; they use real loopback servers, SQLite files and spreadsheets. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: true, diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // what the plugin loader resolves for plugins under plain Node (src/connectors/plugin-resolution.ts):
  // the contract by name, and the daemon's libraries for a plugin folder outside the repository
  moduleNameMapper: { '^tracker-sync/connector$': '<rootDir>/src/connector.ts' },
  modulePaths: ['<rootDir>/node_modules'],
  testTimeout: 60000,
  // four on two cores: most long suites wait on daemons, ticks and sleeps (a full run used 1.2 cores on average:
  // 627 s of CPU in 519 s; with three workers it took 659 s, over the ten minutes npm test is allowed)
  maxWorkers: 4,
  // the known-long suites first: a clean clone has no timings cached, and jest would start them last (by file size)
  testSequencer: '<rootDir>/test/support/long-suites-first.js',
  // the default output, plus why suites were skipped (no PostgreSQL, no chromium) and how to enable them
  reporters: ['default', '<rootDir>/test/support/skip-reasons-reporter.js'],
};
