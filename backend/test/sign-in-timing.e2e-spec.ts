import { performance } from 'node:perf_hooks';
import { createUser, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * No user enumeration: a sign-in for an account that does not exist must look exactly like one
 * with a wrong password, in its reply and in its timing (auth.service.ts verifies a decoy hash
 * when there is no account).
 */
describe('POST /api/signin for an unknown user and for a known user with a wrong password', () => {
  let t: TestApp;
  let known: TestUser;

  beforeAll(async () => {
    // test-app.ts turns the rate limits off, which the dozens of sign-ins below need.
    t = await startTestApp();
    known = await createUser(t, { userName: `timing_${process.pid}`, password: 'the real password' });
  });
  afterAll(() => t.close());

  function signIn(userName: string) {
    return t.http.post('/api/signin').send({ userName, password: 'not the password' });
  }

  it('answers byte for byte the same', async () => {
    const wrongPassword = await signIn(known.userName);
    const unknownName = await signIn(`nobody_${process.pid}`);
    const unknownEmail = await signIn(`nobody_${process.pid}@example.com`);
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.body).toEqual({ error: expect.any(String) });
    for (const reply of [unknownName, unknownEmail]) {
      expect(reply.status).toBe(wrongPassword.status);
      expect(reply.text).toBe(wrongPassword.text);
      expect(reply.headers['content-type']).toBe(wrongPassword.headers['content-type']);
      expect(reply.headers['content-length']).toBe(wrongPassword.headers['content-length']);
    }
  });

  it('takes about the same time, so timing does not reveal which accounts exist', async () => {
    const WARM_UP = 3;
    const ROUNDS = 20;
    const times = { unknown: [] as number[], wrongPassword: [] as number[] };
    const timed = async (kind: keyof typeof times, round: number) => {
      const started = performance.now();
      const response = await signIn(kind === 'unknown' ? `nobody_${round}_${process.pid}` : known.userName);
      const elapsed = performance.now() - started;
      expect(response.status).toBe(401);
      if (round >= WARM_UP) times[kind].push(elapsed);
    };
    // Interleaved, the first of each pair alternating: a change in the machine's load (other
    // suites run beside this one) falls on both kinds alike.
    for (let round = 0; round < WARM_UP + ROUNDS; round += 1) {
      if (round % 2 === 0) {
        await timed('unknown', round);
        await timed('wrongPassword', round);
      } else {
        await timed('wrongPassword', round);
        await timed('unknown', round);
      }
    }

    const unknown = median(times.unknown);
    const wrongPassword = median(times.wrongPassword);
    // Medians, because a loaded 2-core machine adds outliers of many times the typical time. The
    // leak this guards against is skipping the argon2 verification for an unknown user: that reply
    // would take a few milliseconds against tens for a wrong password (19 MiB, 2 passes), a gap
    // of 80 % or more. ±35 % of the slower median (at least 10 ms, for a fast machine where both
    // take little) is far from that gap, and wide enough for the noise between two medians of 20.
    const tolerance = Math.max(0.35 * Math.max(unknown, wrongPassword), 10);
    // Compared inside an object so that a failure prints both medians, not just the gap.
    const gap = Math.abs(unknown - wrongPassword);
    expect({ unknown, wrongPassword, gapWithinTolerance: gap <= tolerance }).toEqual({
      unknown,
      wrongPassword,
      gapWithinTolerance: true,
    });
  }, 60_000);
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
