import { AsyncLocalStorage } from "node:async_hooks";
import type { AuditActorKind } from "../../db/schema/audit.js";

/**
 * Who is acting, as the trail records it: a signed-in user (and from where), a payer on a public
 * page, a job or run (and who started it), the CLI, or the system itself (migrations, schedules).
 */
export type AuditActor = {
  kind: AuditActorKind;
  userId: number | null;
  /** The user's email, the job's name and what started it, "cli: attach-user", "payer". */
  label: string;
  address: string | null;
  userAgent: string | null;
  /** Why, when the person gave a reason for what they do (an undo, a deletion, a reopen). */
  reason?: string | null;
};

const SYSTEM: AuditActor = { kind: "system", userId: null, label: "system", address: null, userAgent: null };

const storage = new AsyncLocalStorage<AuditActor>();

/**
 * Runs `work` with `actor` as the one every audit row written inside it names. Set once where work
 * enters the process (the router for requests, the job engine for jobs, the CLI), so the functions
 * that write need no extra parameter.
 */
export function withAuditActor<T>(actor: AuditActor, work: () => T): T {
  return storage.run(actor, work);
}

/**
 * Runs `work` with a reason every audit row written inside it carries (unless the row names its
 * own): the person's answer to "why?", given once with the request.
 */
export function withAuditReason<T>(reason: string | null | undefined, work: () => T): T {
  const trimmed = reason?.trim();
  return trimmed ? storage.run({ ...currentAuditActor(), reason: trimmed.slice(0, 500) }, work) : work();
}

export function currentAuditActor(): AuditActor {
  return storage.getStore() ?? SYSTEM;
}

/** The user agent as recorded: at most 512 characters. */
export function userAgentOf(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  return value ? value.slice(0, 512) : null;
}
