import type { AdminSecondFactor } from "../../config.js";

/** What decides whether a user must keep a second factor. */
export type SecondFactorDuty = { isAdmin: boolean; clientRequiresSecondFactor: boolean };

/**
 * Provider admins must when ADMIN_SECOND_FACTOR=required (the default); anyone must when their
 * client requires it. Owners and staff otherwise may.
 */
export function mustHaveSecondFactor(user: SecondFactorDuty, adminPolicy: AdminSecondFactor): boolean {
  return (user.isAdmin && adminPolicy === "required") || user.clientRequiresSecondFactor;
}
