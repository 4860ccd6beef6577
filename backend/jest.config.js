/** Every test boots the real Nest app against a real database (SQLite, or PostgreSQL when
 * TEST_DATABASE_URL is set), so files run in parallel workers, each on its own database. */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/src/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
  },
  // The test kit's sources, as e2e/ reads them: no build of it needed before a test run.
  moduleNameMapper: { '^@techit/testkit/(.*)$': '<rootDir>/../tools/testkit/src/$1' },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
