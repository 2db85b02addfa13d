/** The signed-in user as the API sees it. */
export type AuthUser = {
  id: number;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  isClientStaff: boolean;
  clientId: number | null;
};

export type AuthContext = { user: AuthUser; tokenId: string; expiresAt: Date };

/** Who acts, and for which client. Every tenant-scoped function takes one explicitly. */
export type TenantContext = { clientId: number; user: AuthUser };

export type Role = "admin" | "owner" | "staff";

export function roleOf(user: AuthUser): Role {
  if (user.isAdmin) return "admin";
  return user.isClientStaff ? "staff" : "owner";
}
