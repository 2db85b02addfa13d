import { z } from "zod";
import { integerParam, listQuerySchema } from "../api/list-query.js";
import { calendarDate } from "../calendar/calendar-date.js";
import type { UserRole } from "../records/user-records.js";

/**
 * Who reads the audit trail and the access review: the provider's admins, and a client's owners
 * (their own client's). Staff do not: PCI DSS 10.3.1 and 7.2.4 give read access only where the job
 * needs it.
 */
export function readsOversight(user: { role: UserRole; clientId: number | null }): boolean {
  return user.role === "admin" || (user.role === "owner" && user.clientId !== null);
}

/** Kinds of actor the trail names. */
export const auditActorKinds = ["user", "job", "cli", "payer", "system"] as const;

/** One changed field: its value before and after (null: none; masked values show "••••"). */
export const auditChangeSchema = z.object({
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});

/** A trail row as GET /api/audit/ answers it. */
export const auditEventSchema = z.object({
  /** The client whose chain holds the row; null for the provider's own records (admins, registrations). */
  client_id: z.number().int().nullable(),
  seq: z.number().int(),
  at: z.string(),
  actor: z.string(),
  actor_kind: z.enum(auditActorKinds),
  actor_user_id: z.number().int().nullable(),
  address: z.string().nullable(),
  user_agent: z.string().nullable(),
  action: z.string(),
  record_kind: z.string(),
  record_id: z.string(),
  customer_id: z.number().int().nullable(),
  changes: z.array(auditChangeSchema),
  reason: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({ count: z.number().int(), results: z.array(auditEventSchema) });

/**
 * GET /api/audit/: paging and ordering (at, seq; newest first by default) and filters. `actor` is a
 * user id or part of the actor's name (an email, a job's name); `from` and `to` are business dates,
 * both included.
 */
export const auditListQuerySchema = listQuerySchema.extend({
  record_kind: z.string().trim().max(32).optional(),
  record_id: z.string().trim().max(64).optional(),
  customer_id: integerParam({ min: 1 }).optional(),
  action: z.string().trim().max(64).optional(),
  actor: z.string().trim().max(254).optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
  /** csv: every matching row (not one page) as a download, one line per changed field. */
  format: z.enum(["json", "csv"]).optional(),
});
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;

/** Why a person did something, as the trail keeps it with the change (optional; at most 500 characters). */
export const auditReasonField = z
  .string()
  .trim()
  .max(500, "Keep the reason under 500 characters.")
  .optional();

/** A deletion's query: the client, and why (DELETE takes no body). */
export const reasonQuerySchema = z.looseObject({
  client_id: integerParam({ min: 1 }).optional(),
  reason: auditReasonField,
});

/** An action's body that carries only its reason (an undo); none at all is allowed. */
export const reasonBodySchema = z.object({ reason: auditReasonField }).default({});
