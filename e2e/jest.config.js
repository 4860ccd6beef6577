/** Each story file starts the built server on a fresh database and drives Debian's Chromium. */
module.exports = {
  rootDir: '.',
  // Node's environment, plus a flag that lets a failing story save screenshots of its pages.
  testEnvironment: '<rootDir>/support/failure-aware-environment.js',
  // Stories drive the browser; *.test.ts check the built app without one (the bundle budget).
  testMatch: ['<rootDir>/tests/**/*.story.ts', '<rootDir>/tests/**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
  moduleNameMapper: {
    '^@techit/contract/(.*)$': '<rootDir>/../contract/src/$1',
    '^@techit/testkit/(.*)$': '<rootDir>/../tools/testkit/src/$1',
  },
  testTimeout: 60000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/../backend/test/support/summary-reporter.js'],
};
