import { Injectable } from '@nestjs/common';
import { Algorithm, hash, verify } from '@node-rs/argon2';

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

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
