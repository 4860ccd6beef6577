import type { Role } from '@techit/contract/enums';

/** The caller of an authenticated request, as the JWT strategy resolved it. */
export interface AuthUser {
  id: string;
  userName: string;
  role: Role;
}
