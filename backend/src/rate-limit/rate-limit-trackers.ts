import { createHash, createSecretKey } from 'node:crypto';
import { JwtService } from '@nestjs/jwt';
import { normalizeIp } from '@nestjs/throttler';

/** The parts of a request the trackers read (Fastify's request has them all). */
export interface TrackedRequest {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

const BEARER = /^bearer\s+(\S+)$/i;

/**
 * The client's address: Fastify's `request.ip`, which is the socket's peer unless TRUST_PROXY
 * names the proxy in front (then the client it forwarded for). IPv6 addresses count per /64, the
 * block one subscriber usually holds, so rotating through it does not buy a fresh budget.
 */
export function addressTracker(request: Pick<TrackedRequest, 'ip'>): string {
  return `ip:${normalizeIp(request.ip)}`;
}

/** Who a request counts against: its address, its user, or the account it tries to sign in to. */
export class RateLimitTrackers {
  private readonly jwt = new JwtService();
  // A KeyObject built once, as in JwtStrategy: jsonwebtoken would build one per call from a string.
  private readonly key: Buffer;

  constructor(jwtSecret: string) {
    this.key = createSecretKey(Buffer.from(jwtSecret, 'utf8')) as unknown as Buffer;
  }

  ip(request: TrackedRequest): string {
    return addressTracker(request);
  }

  /**
   * The user when the request carries a token this server signed and that has not expired, else
   * the address. Only the signature is checked (no database read): enough to stop a forged token
   * from spending someone else's budget, and the route's own guard still refuses a revoked one.
   */
  userOrIp(request: TrackedRequest): string {
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    if (token !== undefined) {
      try {
        const payload = this.jwt.verify<{ sub?: unknown }>(token, { secret: this.key, algorithms: ['HS256'] });
        if (typeof payload.sub === 'string') return `user:${payload.sub}`;
      } catch {
        // Forged, expired or malformed: counted by address like any visitor.
      }
    }
    return addressTracker(request);
  }

  /**
   * The account a sign-in is aimed at, whatever address it comes from; null when the body names
   * none (the address limit still counts it). Hashed: the key stays short whatever was sent.
   */
  userName(request: TrackedRequest): string | null {
    const body = request.body as { userName?: unknown } | null | undefined;
    const userName = typeof body?.userName === 'string' ? body.userName.trim().toLowerCase() : '';
    if (userName === '') return null;
    return `user-name:${createHash('sha256').update(userName).digest('base64url')}`;
  }

  /**
   * The inbox a password reset request is aimed at (POST /api/password-reset), whether or not an
   * account has it, so the limit says nothing about which exist; hashed like userName. Compared
   * as the account lookup compares emails (NFC, lower case), so changing case buys no fresh budget.
   */
  email(request: TrackedRequest): string | null {
    const body = request.body as { email?: unknown } | null | undefined;
    const email = typeof body?.email === 'string' ? body.email.trim().normalize('NFC').toLowerCase() : '';
    if (email === '') return null;
    return `email:${createHash('sha256').update(email).digest('base64url')}`;
  }
}
