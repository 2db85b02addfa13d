import type { Executor } from "../../db/database-types.js";
import type { AuditChange } from "../../db/tables.js";
import { recordAudit } from "../audit/record-audit.js";

export type SecondFactorAction =
  | "second_factor.enrol"
  | "second_factor.confirm"
  | "second_factor.remove"
  | "second_factor.recovery_codes"
  | "second_factor.use_totp"
  | "second_factor.use_recovery_code"
  | "second_factor.reset"
  | "second_factor.passkey_options"
  | "second_factor.passkey_enrol"
  | "second_factor.passkey_remove"
  | "second_factor.use_passkey";

/**
 * A second factor's event in the user's trail (their client's chain, the provider's for admins).
 * The changes say only what state the factor went to: never a secret or a code, and of a passkey
 * only its name and credential id.
 */
export async function auditSecondFactor(
  tx: Executor,
  user: { id: number; clientId: number | null },
  action: SecondFactorAction,
  changes: AuditChange[],
  reason?: string,
): Promise<void> {
  await recordAudit(tx, {
    clientId: user.clientId,
    action,
    recordKind: "user",
    recordId: user.id,
    changes,
    reason: reason ?? null,
  });
}
