import { hash as bcryptHash } from 'bcryptjs';
import { isBcryptHash, PasswordHasher } from './password-hasher';

describe('PasswordHasher with the original app’s bcrypt hashes', () => {
  const hasher = new PasswordHasher();
  let bcrypt2b: string;

  beforeAll(async () => {
    bcrypt2b = await bcryptHash('the original password', 4);
  });

  it('verifies $2a$, $2b$ and $2y$ hashes of the right password and refuses a wrong one', async () => {
    for (const variant of ['$2a$', '$2b$', '$2y$']) {
      const stored = variant + bcrypt2b.slice(4);
      expect(await hasher.verify(stored, 'the original password')).toBe(true);
      expect(await hasher.verify(stored, 'the original password ')).toBe(false);
    }
  });

  it('asks for a re-hash of a bcrypt hash, never of its own argon2id ones', async () => {
    expect(hasher.needsRehash(bcrypt2b)).toBe(true);
    const argon = await hasher.hash('the original password');
    expect(argon).toMatch(/^\$argon2id\$/);
    expect(hasher.needsRehash(argon)).toBe(false);
    expect(await hasher.verify(argon, 'the original password')).toBe(true);
  });

  it('refuses a bcrypt cost above 14 without computing it (pure-JS bcrypt at cost 20 would take minutes)', async () => {
    const cost20 = bcrypt2b.replace(/^\$2b\$04\$/, '$2b$20$');
    expect(isBcryptHash(cost20)).toBe(false);
    const started = performance.now();
    expect(await hasher.verify(cost20, 'the original password')).toBe(false);
    // Cost 20 would be 65,536 times cost 4; the argon2 decoy takes well under this.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('never matches a stored value that is not a hash, such as plain text or the import’s locked marker', async () => {
    expect(await hasher.verify('plain text password', 'plain text password')).toBe(false);
    expect(await hasher.verify('', '')).toBe(false);
    expect(await hasher.verify(null, 'anything')).toBe(false);
  });
});
