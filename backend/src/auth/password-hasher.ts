import { availableParallelism } from 'node:os';
import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import { compare as bcryptCompare } from 'bcryptjs';

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. `2` is Algorithm.Argon2id, a const enum
// that isolated-module compilation cannot read from the package's type declarations.
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * A bcrypt hash as the original MERN TechIt stored it (bcryptjs), kept by `npm run import:mongo`:
 * `$2a$`/`$2b$`/`$2y$`, the cost, then 22 characters of salt and 31 of hash. Costs above 14 are
 * refused: bcryptjs is pure JavaScript, and one sign-in attempt at cost 20 would hold a hashing
 * slot for minutes.
 */
const BCRYPT_HASH = /^\$2[aby]\$(0[4-9]|1[0-4])\$[./A-Za-z0-9]{53}$/;

export function isBcryptHash(passwordHash: string): boolean {
  return BCRYPT_HASH.test(passwordHash);
}

/**
 * At most this many hashes at once (libuv's pool would run 4). Each takes 19 MiB and a whole core
 * for ~50 ms, so more at once than there are cores adds no throughput, only memory (a burst of
 * sign-ins held 4 × 19 MiB, the largest part of the server's peak RSS in the bench) and slower
 * replies for everything else; the rest wait in line. Capped at 2 so that sign-ins never take
 * every core of a bigger machine either.
 */
const MAX_CONCURRENT_HASHES = Math.max(1, Math.min(2, availableParallelism()));

@Injectable()
export class PasswordHasher {
  private readonly slots = new Slots(MAX_CONCURRENT_HASHES);
  /** Verified against when the account does not exist, so both failures take the same time. */
  private readonly decoy: Promise<string> = this.slots.run(() => hash('decoy-password-never-matches', OPTIONS));

  hash(password: string): Promise<string> {
    return this.slots.run(() => hash(password, OPTIONS));
  }

  async verify(passwordHash: string | null, password: string): Promise<boolean> {
    // An account locked without a usable hash (an import) is verified against the decoy too, so
    // its failures take as long as everyone's.
    const usable = passwordHash !== null && (passwordHash.startsWith('$argon2') || isBcryptHash(passwordHash));
    const stored = usable ? passwordHash : await this.decoy;
    try {
      const matches = await this.slots.run(() =>
        isBcryptHash(stored) ? bcryptCompare(password, stored) : verify(stored, password),
      );
      return usable && matches;
    } catch {
      return false;
    }
  }

  /** An imported bcrypt hash: replace it with argon2id once a sign-in has proven the password. */
  needsRehash(passwordHash: string): boolean {
    return isBcryptHash(passwordHash);
  }
}

/** A counting semaphore: runs at most `size` tasks at once, the others in arrival order. */
class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next in line, or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
