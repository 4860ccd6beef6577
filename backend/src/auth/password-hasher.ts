import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. `2` is Algorithm.Argon2id, a const enum
// that isolated-module compilation cannot read from the package's type declarations.
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

@Injectable()
export class PasswordHasher {
  /** Verified against when the account does not exist, so both failures take the same time. */
  private readonly decoy: Promise<string> = hash('decoy-password-never-matches', OPTIONS);

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  async verify(passwordHash: string | null, password: string): Promise<boolean> {
    try {
      const matches = await verify(passwordHash ?? (await this.decoy), password);
      return passwordHash !== null && matches;
    } catch {
      return false;
    }
  }
}
