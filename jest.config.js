/** Tests mirror src/ and connectors/; they use real loopback servers, SQLite files and spreadsheets. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', isolatedModules: true, diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 60000,
  maxWorkers: 2,
  // the default output, plus why suites were skipped (no PostgreSQL, no chromium) and how to enable them
  reporters: ['default', '<rootDir>/test/support/skip-reasons-reporter.js'],
};
