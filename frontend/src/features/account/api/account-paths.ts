/** The API addresses of the account routes (docs/decisions/049-accounts-people-control.md), built in one place. */
export const accountPaths = {
  /** PUT /api/password */
  password: '/password',
  /** PUT /api/email */
  email: '/email',
  /** POST /api/export */
  export: '/export',
  /** DELETE /api/account */
  account: '/account',
};
