import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * scripts/audit-production.mjs decides whether CI fails on `npm audit --omit=dev`. It is fed saved
 * reports in the shape npm 10 prints (`npm audit --json`, auditReportVersion 2), so the decision is
 * proven even where npm's advisory service cannot be reached.
 */
const SCRIPT = join(__dirname, '..', '..', 'scripts', 'audit-production.mjs');

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'techit-audit-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function judge(report: unknown, env: Record<string, string> = {}): { status: number | null; stderr: string } {
  const file = join(dir, `report-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof report === 'string' ? report : JSON.stringify(report));
  const run = spawnSync(process.execPath, [SCRIPT], {
    encoding: 'utf8',
    env: { ...process.env, AUDIT_REPORT_FILE: file, AUDIT_REQUIRED: '', ...env },
  });
  return { status: run.status, stderr: run.stderr };
}

function report(vulnerabilities: Record<string, { severity: string }>) {
  const counts = { info: 0, low: 0, moderate: 0, high: 0, critical: 0, total: 0 };
  const entries = Object.fromEntries(
    Object.entries(vulnerabilities).map(([name, { severity }]) => {
      counts[severity as keyof typeof counts] += 1;
      counts.total += 1;
      return [
        name,
        { name, severity, isDirect: false, via: [], effects: [], range: '<1.2.3', nodes: [], fixAvailable: true },
      ];
    }),
  );
  return { auditReportVersion: 2, vulnerabilities: entries, metadata: { vulnerabilities: counts, dependencies: {} } };
}

describe('npm run audit:production', () => {
  it('passes when no production dependency has an advisory', () => {
    expect(judge(report({}))).toMatchObject({ status: 0 });
  });

  it('passes on low and moderate advisories, listing the counts', () => {
    const result = judge(report({ 'some-lib': { severity: 'moderate' }, other: { severity: 'low' } }));
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('"moderate":1');
  });

  it.each(['high', 'critical'])('fails on a %s advisory and names the package', (severity) => {
    const result = judge(report({ 'bad-lib': { severity }, fine: { severity: 'low' } }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${severity}: bad-lib`);
  });

  it('says so when the advisory service cannot be reached, and fails then only if AUDIT_REQUIRED=1', () => {
    const unreachable = {
      message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk',
    };
    const lenient = judge(unreachable);
    expect(lenient.status).toBe(0);
    expect(lenient.stderr).toContain('could not check the advisories: 405');
    expect(judge(unreachable, { AUDIT_REQUIRED: '1' }).status).toBe(1);
    expect(judge('not json', { AUDIT_REQUIRED: '1' }).status).toBe(1);
  });
});
