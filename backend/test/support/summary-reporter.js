/**
 * Appends the run's totals as one JSON line to TEST_SUMMARY_FILE (when set): `npm test` runs the
 * API suite and the browser suite, and .ci/run adds up every line of both database legs into one
 * "N passed, N failed" line.
 */
const { appendFileSync } = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_SUMMARY_FILE;
    if (!file) return;
    const failedSuites = results.numFailedTestSuites + results.numRuntimeErrorTestSuites;
    appendFileSync(
      file,
      `${JSON.stringify({
        passed: results.numPassedTests,
        failed: results.numFailedTests + (failedSuites > 0 && results.numFailedTests === 0 ? failedSuites : 0),
      })}\n`,
    );
  }
}

module.exports = SummaryReporter;
