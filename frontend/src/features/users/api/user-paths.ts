/**
 * The API addresses of the user reads, built in one place: the fetcher (get-user.ts) requests
 * them, and the build makes a visitor's first requests from them (app/first-data.ts). No browser
 * code: the build imports it.
 */
export const userPaths = {
  /** GET /api/user/:id */
  user: (userId: string) => `/user/${encodeURIComponent(userId)}`,
};
