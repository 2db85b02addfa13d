import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { claimWentOut, settleWentOut } from "./went-out.js";

// What goes out through a statement's pay link (went_out kinds link_payment and link_view), for the
// payments module. Only statements of a production run are recorded: no other can be undone.

/** A statement's run part, held with a share lock; "withdrawn" when undone or the statement is gone. */
export type StatementPart = { clientId: number; productionRunId: number } | "no run" | "withdrawn";

const statementRowSchema = z.object({ production_run_id: dbInt.nullable() });
const partRowSchema = z.object({ undone: z.boolean() });

/**
 * Takes the share lock of the statement's run part (the lock undo waits on), so that a payment can
 * take it before its customer's lock: undo locks the part, then customers, and so must every path.
 */
export async function holdStatementPart(
  tx: Executor,
  clientId: number,
  statementId: number,
): Promise<StatementPart> {
  const [statement] = await queryRows(
    tx,
    sql`select production_run_id from statements where client_id = ${clientId} and id = ${statementId}`,
    statementRowSchema,
  );
  if (!statement) return "withdrawn";
  if (statement.production_run_id === null) return "no run";
  // Read again under the lock: an undo that committed since the read above shows here.
  const [part] = await queryRows(
    tx,
    sql`select undone_at is not null as undone from production_runs
        where client_id = ${clientId} and id = ${statement.production_run_id} for share`,
    partRowSchema,
  );
  return part && !part.undone ? { clientId, productionRunId: statement.production_run_id } : "withdrawn";
}

/** Claims a payment through the statement's pay link (the caller holds its part, above). */
export async function claimLinkPayment(
  tx: Executor,
  part: StatementPart,
  payment: { attemptId: number; statementId: number },
): Promise<"claimed" | "withdrawn"> {
  if (part === "withdrawn") return "withdrawn";
  if (part === "no run") return "claimed";
  const claim = await claimWentOut(tx, {
    ...part,
    kind: "link_payment",
    ref: payment.attemptId,
    statementId: payment.statementId,
  });
  return claim === "withdrawn" ? "withdrawn" : "claimed";
}

/**
 * Settles a pay-link payment's claim as its answer comes: approved went out; declined (or never
 * sent) did not, so undo is allowed again if nothing else went out.
 */
export async function settleLinkPayment(
  tx: Executor,
  payment: { clientId: number; attemptId: number; statementId: number },
  state: "done" | "refused",
): Promise<void> {
  const [statement] = await queryRows(
    tx,
    sql`select production_run_id from statements where client_id = ${payment.clientId} and id = ${payment.statementId}`,
    statementRowSchema,
  );
  if (!statement || statement.production_run_id === null) return;
  await settleWentOut(
    tx,
    {
      clientId: payment.clientId,
      productionRunId: statement.production_run_id,
      kind: "link_payment",
      ref: payment.attemptId,
    },
    state,
  );
}

/**
 * Records that a statement was opened through its pay link; false when its part was undone (the
 * page then answers as for a statement that does not exist).
 */
export async function recordLinkView(tx: Executor, clientId: number, statementId: number): Promise<boolean> {
  const part = await holdStatementPart(tx, clientId, statementId);
  if (part === "withdrawn") return false;
  if (part === "no run") return true;
  return (
    (await claimWentOut(tx, { ...part, kind: "link_view", ref: statementId, statementId })) !== "withdrawn"
  );
}
