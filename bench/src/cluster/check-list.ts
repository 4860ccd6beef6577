import { appendFileSync } from 'node:fs';

export interface CheckResult {
  name: string;
  /** null: not reached (an earlier step failed), counted as failed. */
  passed: boolean | null;
  detail: string;
}

/**
 * The run's pass/fail checks, all named up front so that a run that stops early still reports
 * every check it did not reach as failed.
 */
export class CheckList {
  private readonly results: CheckResult[];

  constructor(names: readonly string[]) {
    this.results = names.map((name) => ({ name, passed: null, detail: 'not reached' }));
  }

  record(name: string, passed: boolean, detail: string): void {
    const result = this.results.find((candidate) => candidate.name === name);
    if (!result) throw new Error(`Unknown check "${name}"`);
    result.passed = passed;
    result.detail = detail;
  }

  get all(): readonly CheckResult[] {
    return this.results;
  }

  get passed(): number {
    return this.results.filter((result) => result.passed === true).length;
  }

  get failed(): number {
    return this.results.length - this.passed;
  }

  print(): void {
    for (const result of this.results) {
      const mark = result.passed === true ? 'PASS' : 'FAIL';
      console.log(`  ${mark}  ${result.name}: ${result.detail}`);
    }
  }

  /** One line for CI, and the same counts as one JSON line in TEST_SUMMARY_FILE (read by .ci/run). */
  summarise(): void {
    console.log(`cluster: ${this.passed} passed, ${this.failed} failed`);
    const file = process.env.TEST_SUMMARY_FILE;
    if (file) appendFileSync(file, `${JSON.stringify({ passed: this.passed, failed: this.failed })}\n`);
  }
}
