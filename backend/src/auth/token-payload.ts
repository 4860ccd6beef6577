/** How long a token is valid: signed with this expiry, and refused past this age whatever it says. */
export const TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

/** What a token of ours says, besides iat and exp (which the JWT library adds and checks). */
export interface TokenPayload {
  /** The user's id. */
  sub: string;
  /**
   * The user's token_version when it was signed; POST /api/logout-all raises the version, which
   * retires every earlier token. Tokens signed before versions existed have none and count as 0.
   */
  ver: number;
}
