/**
 * Writes the run's totals to TEST_SUMMARY_FILE (when set) so .ci/run can add up the SQLite and
 * PostgreSQL legs into one "N passed, N failed" line.
 */
const { writeFileSync } = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_SUMMARY_FILE;
    if (!file) return;
    const failedSuites = results.numFailedTestSuites + results.numRuntimeErrorTestSuites;
    writeFileSync(
      file,
      JSON.stringify({
        passed: results.numPassedTests,
        failed: results.numFailedTests + (failedSuites > 0 && results.numFailedTests === 0 ? failedSuites : 0),
      }),
    );
  }
}

module.exports = SummaryReporter;
