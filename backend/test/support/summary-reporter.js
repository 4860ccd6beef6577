/**
 * Appends the run's totals as one JSON line to TEST_SUMMARY_FILE (when set): `npm test` runs the
 * API suite and the browser suite, and .ci/run adds up every line of both database legs into one
 * "N passed, N failed" line. Each failure's name and the head of its message go along: .ci/run
 * prints them just above that line, where a CI log cut to its end still shows why.
 */
const { appendFileSync } = require('node:fs');
const { stripVTControlCharacters } = require('node:util');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.TEST_SUMMARY_FILE;
    if (!file) return;
    const failedSuites = results.numFailedTestSuites + results.numRuntimeErrorTestSuites;
    const failures = [];
    for (const suite of results.testResults) {
      const file = suite.testFilePath.split(/[\\/]/).slice(-2).join('/');
      if (suite.testExecError) failures.push({ name: file, message: head(suite.testExecError.message) });
      for (const test of suite.testResults) {
        if (test.status === 'failed') {
          failures.push({ name: `${file} › ${test.fullName}`, message: head(test.failureMessages.join('\n')) });
        }
      }
    }
    appendFileSync(
      file,
      `${JSON.stringify({
        passed: results.numPassedTests,
        failed: results.numFailedTests + (failedSuites > 0 && results.numFailedTests === 0 ? failedSuites : 0),
        failures,
      })}\n`,
    );
  }
}

/** The first lines of a failure, without colours, and the first of its stack lines in our code. */
function head(message) {
  const lines = stripVTControlCharacters(String(message))
    .split('\n')
    .map((line) => line.trimEnd())
    .filter(Boolean);
  const where = lines.find((line) => /^\s+at .*\.(story|spec|test)\.ts:\d+/.test(line));
  return [...lines.filter((line) => !/^\s+at /.test(line)).slice(0, 8), ...(where ? [where.trim()] : [])].join('\n');
}

module.exports = SummaryReporter;
