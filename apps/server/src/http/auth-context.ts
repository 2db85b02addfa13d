import type { CachedUser } from "../db/auth-cache.js";

/** The signed-in user as the API sees it: the user authentication read, less what it checked. */
export type AuthUser = Omit<
  CachedUser,
  "isActive" | "tokensValidAfter" | "hasSecondFactor" | "clientRequiresSecondFactor"
>;

/** Only the AuthUser fields of a user read with more (a users row, the authentication cache's entry). */
export function authUserOf(user: AuthUser): AuthUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    isAdmin: user.isAdmin,
    isClientStaff: user.isClientStaff,
    clientId: user.clientId,
  };
}

export type AuthContext = {
  user: AuthUser;
  tokenId: string;
  expiresAt: Date;
  /** The user must set up a second factor first: only enrolment, /api/me/ and logout answer. */
  secondFactorEnrolmentRequired?: boolean;
};

/** Who acts, and for which client. Every tenant-scoped function takes one explicitly. */
export type TenantContext = { clientId: number; user: AuthUser };

export type Role = "admin" | "owner" | "staff";

export function roleOf(user: AuthUser): Role {
  if (user.isAdmin) return "admin";
  return user.isClientStaff ? "staff" : "owner";
}
