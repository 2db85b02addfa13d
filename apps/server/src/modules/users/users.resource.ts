import { userInputSchema, userNameFields } from "@cyclebill/domain";
import { z } from "zod";
import { users } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import type { TenantResource } from "../tenancy/tenant-records.js";

export const userOutputSchema = z.object({
  ...userNameFields,
  is_active: z.boolean(),
  is_client_staff: z.boolean(),
  role: z.enum(["owner", "staff"]),
  client: z.number().int().nullable(),
  last_login: z.string().nullable(),
  login_count: z.number().int(),
  created_at: z.string(),
  has_password: z.boolean(),
});
export type UserOutput = z.infer<typeof userOutputSchema>;

export const USERS_FORBIDDEN_DETAIL = "Only the client's owners and the provider's admins manage users.";

export function canManageUsers(tenant: TenantContext): boolean {
  return tenant.user.isAdmin || !tenant.user.isClientStaff;
}

/** A client's users (owners and staff); provider admins belong to no client and never appear here. */
export const usersResource: TenantResource<typeof users, z.output<typeof userInputSchema>, UserOutput> = {
  name: "users",
  operationNames: { one: "User", many: "Users" },
  tag: "Users",
  table: users,
  input: userInputSchema,
  output: userOutputSchema,
  orderingFields: {
    id: users.id,
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
    last_login: users.lastLogin,
    created_at: users.createdAt,
    is_client_staff: users.isClientStaff,
  },
  defaultOrdering: "lastName,firstName",
  toValues: (input) => ({
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email.toLowerCase(),
    username: input.email.toLowerCase(),
    isClientStaff: input.isStaff,
    isActive: input.is_active,
  }),
  toApi: (row) => ({
    id: row.id,
    username: row.username,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    name: `${row.firstName} ${row.lastName}`.trim(),
    is_active: row.isActive,
    is_client_staff: row.isClientStaff,
    role: row.isClientStaff ? "staff" : "owner",
    client: row.clientId,
    last_login: row.lastLogin ? row.lastLogin.toISOString() : null,
    login_count: row.loginCount,
    created_at: row.createdAt.toISOString(),
    has_password: row.passwordHash !== null,
  }),
  canWrite: canManageUsers,
};
