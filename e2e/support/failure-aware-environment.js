const { TestEnvironment } = require('jest-environment-node');

/**
 * Jest's node environment, plus one flag the stories read in their afterEach: did the test that
 * just ran fail? Jest tells only the environment; with the flag, a failing story saves what its
 * browser showed (screenshots/failures/), which is what a flake on a busy CI run leaves to study.
 */
class FailureAwareEnvironment extends TestEnvironment {
  /** @param {import('jest-circus').Event} event */
  handleTestEvent(event) {
    if (event.name === 'test_start') this.global.__storyFailed = false;
    // Failures in the test body and in beforeEach hooks both count; afterEach hooks run after.
    if (event.name === 'test_fn_failure' || (event.name === 'hook_failure' && event.hook.type === 'beforeEach')) {
      this.global.__storyFailed = true;
    }
  }
}

module.exports = FailureAwareEnvironment;
