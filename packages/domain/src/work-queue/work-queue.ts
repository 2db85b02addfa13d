import { z } from "zod";
import { listQuerySchema } from "../api/list-query.js";

// The bureau's work queue: what needs a person today, across the provider's clients (admins) or
// for one client (its owner), each item with the action that resolves it. An item leaves the queue
// when what it is about is resolved (a pool downloaded, a payment checked, a run retried), or, for
// the kinds no screen resolves by itself (a return or decline followed up by phone, an email that
// cannot be fixed), when a person marks it handled, with a note.

export const WORK_ITEM_KINDS = [
  "cycle_due",
  "run_waiting_approval",
  "statement_unproven",
  "run_failed",
  "pool_not_downloaded",
  "statement_undeliverable",
  "email_failed",
  "payment_unknown",
  "payment_declined",
  "payment_returned",
] as const;
export type WorkItemKind = (typeof WORK_ITEM_KINDS)[number];

/** Kinds a person closes by marking them handled (the others close when their record changes). */
export const HANDLED_BY_HAND_KINDS = [
  "statement_undeliverable",
  "email_failed",
  "payment_declined",
  "payment_returned",
] as const;
export type HandledByHandKind = (typeof HANDLED_BY_HAND_KINDS)[number];

export function handledByHand(kind: WorkItemKind): kind is HandledByHandKind {
  return (HANDLED_BY_HAND_KINDS as readonly string[]).includes(kind);
}

/** Heading of each kind's group on Home, in the queue's order. */
export const WORK_ITEM_HEADINGS: Record<WorkItemKind, string> = {
  cycle_due: "Cycles due today",
  run_waiting_approval: "Runs waiting for approval",
  run_failed: "Runs that failed",
  pool_not_downloaded: "Pools not yet downloaded for print",
  statement_undeliverable: "Statements that could not be delivered",
  email_failed: "Statement emails that failed",
  payment_unknown: "Payments whose answer was lost",
  payment_declined: "Declined card and ACH payments",
  payment_returned: "Returned payments and chargebacks",
  statement_unproven: "Statements that no longer prove themselves",
};

export const workItemSchema = z.object({
  kind: z.enum(WORK_ITEM_KINDS),
  /** The record the item is about, unique within its kind and client (what "handled" names). */
  key: z.string(),
  /** Null for the provider's own items (a cycle's scheduled run, which bills many clients). */
  client_id: z.number().int().nullable(),
  client_name: z.string(),
  title: z.string(),
  detail: z.string(),
  amount: z.string().nullable(),
  /** When it arose: an ISO timestamp or a YYYY-MM-DD date. */
  since: z.string(),
  /** The screen that resolves it (the web adds the client), and what its button says. */
  action: z.object({ label: z.string(), to: z.string() }),
  handled_by_hand: z.boolean(),
});
export type WorkItem = z.output<typeof workItemSchema>;

export const workQueueQuerySchema = listQuerySchema.extend({
  kind: z.enum(WORK_ITEM_KINDS).optional(),
});
export type WorkQueueQuery = z.output<typeof workQueueQuerySchema>;

export const markHandledSchema = z.object({
  kind: z.enum(HANDLED_BY_HAND_KINDS, {
    error:
      "Only undeliverable statements, a failed email, a declined payment or a return are marked handled by hand.",
  }),
  key: z.string().trim().min(1, "Say which item.").max(100),
  note: z.string().trim().max(500).optional(),
});
export type MarkHandled = z.output<typeof markHandledSchema>;

export const markedHandledSchema = z.object({
  kind: z.enum(HANDLED_BY_HAND_KINDS),
  key: z.string(),
  client_id: z.number().int(),
  note: z.string(),
  created_at: z.string(),
});
export type MarkedHandled = z.output<typeof markedHandledSchema>;
