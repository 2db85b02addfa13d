import { and, eq, sql } from "drizzle-orm";
import { CUSTOMER_NO_EMAIL_MESSAGE, statementActionRefusal, type StatementResend } from "@cyclebill/domain";
import type { Database, Executor } from "../../db/database.js";
import { statementResends, statements } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { nonFieldError, notFound } from "../../http/errors.js";
import { pdfPool } from "../../pdf/pdf-pool.js";
import { recordChange } from "../audit/record-change.js";
import type { Mailer } from "../mail/mailer.js";
import { loadStatementDocuments } from "../statements/load-statement-documents.js";
import { statementEmail } from "./statement-email.js";
import { claimWentOut, settleWentOut, type WentOutThing } from "./went-out.js";

// One statement sent again on its own (statement_resends, migration 0043): by email now, or queued
// for the client's next print pool. The delivery module owns the table.

type ResendRow = typeof statementResends.$inferSelect;

function resendToApi(row: ResendRow): StatementResend {
  return {
    id: row.id,
    statement_id: row.statementId,
    channel: row.channel,
    status: row.status,
    recipient: row.recipient,
    pool: row.poolId,
    error: row.lastError,
    created: row.createdAt.toISOString(),
    sent: row.sentAt?.toISOString() ?? null,
  };
}

/** The statement's row (the client's own), with whether a reprint of it already waits. */
async function statementFor(tx: Executor, clientId: number, id: number, lock: boolean) {
  const query = tx
    .select()
    .from(statements)
    .where(and(eq(statements.clientId, clientId), eq(statements.id, id)));
  const [statement] = lock ? await query.for("update") : await query;
  if (!statement) throw notFound();
  const [queued] = await tx
    .select({ id: statementResends.id })
    .from(statementResends)
    .where(
      and(
        eq(statementResends.clientId, clientId),
        eq(statementResends.statementId, id),
        eq(statementResends.channel, "pool"),
        sql`${statementResends.poolId} is null`,
      ),
    );
  return { statement, queuedForPool: queued !== undefined };
}

function serverRefused(error: unknown): boolean {
  return error instanceof Error && "responseCode" in error && typeof error.responseCode === "number";
}

/**
 * Emails one statement again (any current version, by itself), through the run's email builder and
 * the went_out claim: each press is one resend row with its own claim ref (`resend-{id}`), claimed
 * and marked sending in one transaction before the mail server is called, recorded after. A process
 * killed between leaves it "sending" and never sends it again; the next press is a new resend.
 */
export async function resendStatementEmail(
  db: Database,
  services: { mailer: Mailer; publicUrl: string },
  tenant: TenantContext,
  id: number,
): Promise<StatementResend> {
  const clientId = tenant.clientId;
  const [loaded] = await loadStatementDocuments(db, clientId, [id], { publicUrl: services.publicUrl });
  if (!loaded) throw notFound();
  // Refused before the PDF is drawn; the transaction below checks every rule again under the lock.
  if (loaded.email.trim() === "") throw nonFieldError(CUSTOMER_NO_EMAIL_MESSAGE);
  const { files } = await pdfPool().render([loaded.document]);
  const pdf = files[0];
  if (!pdf) throw new Error("statement PDF not drawn");
  let thing: WentOutThing | null = null;
  const resend = await db.transaction(async (tx) => {
    const { statement, queuedForPool } = await statementFor(tx, clientId, id, true);
    const refusal = statementActionRefusal(
      {
        status: statement.invoiceStatus,
        replaced: statement.replacedById !== null,
        queuedForPool,
        hasEmail: loaded.email.trim() !== "",
      },
      "resend_email",
    );
    if (refusal) throw nonFieldError(refusal);
    const [row] = await tx
      .insert(statementResends)
      .values({
        clientId,
        statementId: id,
        channel: "email",
        status: "sending",
        recipient: loaded.email,
        requestedByUserId: tenant.user.id,
      })
      .returning();
    if (!row) throw new Error("resend not recorded");
    // Its run part can no longer be undone once this goes out (as the run's own emails).
    if (statement.productionRunId !== null) {
      thing = {
        clientId,
        productionRunId: statement.productionRunId,
        kind: "email",
        ref: `resend-${row.id}`,
        statementId: id,
      };
      if ((await claimWentOut(tx, thing)) === "withdrawn") throw notFound();
    }
    await recordChange(tx, {
      clientId,
      action: "statement.resend_email",
      recordKind: "statement",
      recordId: id,
      customerId: statement.customerId,
      before: null,
      after: { resend_id: row.id, recipient: loaded.email },
    });
    return row;
  });
  const claim = thing as WentOutThing | null;
  const messageId = `<statement-${clientId}-${id}-resend-${resend.id}@cyclebill.local>`;
  try {
    await services.mailer.send(
      statementEmail({
        to: resend.recipient,
        document: loaded.document,
        pdf,
        payLink: loaded.document.payLink ?? services.publicUrl,
        messageId,
      }),
    );
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    // The press is recorded as failed (the answer says why); pressing again is a new resend.
    const [failed] = await db.transaction(async (tx) => {
      // Only a refusal the server answered is known not to have gone out.
      if (claim && serverRefused(error)) await settleWentOut(tx, claim, "refused");
      return tx
        .update(statementResends)
        .set({ status: "failed", lastError: message })
        .where(and(eq(statementResends.clientId, clientId), eq(statementResends.id, resend.id)))
        .returning();
    });
    if (!failed) throw new Error("resend not recorded");
    return resendToApi(failed);
  }
  const [sent] = await db.transaction(async (tx) => {
    if (claim) await settleWentOut(tx, claim, "done");
    return tx
      .update(statementResends)
      .set({ status: "sent", messageId, sentAt: new Date() })
      .where(and(eq(statementResends.clientId, clientId), eq(statementResends.id, resend.id)))
      .returning();
  });
  if (!sent) throw new Error("resend not recorded");
  return resendToApi(sent);
}

/**
 * Queues one statement for the client's next print pool (a reprint): the next pool made for the
 * client takes it in the transaction that makes the pool (takeQueuedReprints, reprint-queue.ts), so it prints once; a
 * pool deleted before it went out puts it back in the queue. Once queued, a second press is refused.
 */
export async function queueStatementReprint(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<StatementResend> {
  const clientId = tenant.clientId;
  return db.transaction(async (tx) => {
    const { statement, queuedForPool } = await statementFor(tx, clientId, id, true);
    const refusal = statementActionRefusal(
      { status: statement.invoiceStatus, replaced: statement.replacedById !== null, queuedForPool },
      "add_to_pool",
    );
    if (refusal) throw nonFieldError(refusal);
    const [row] = await tx
      .insert(statementResends)
      .values({ clientId, statementId: id, channel: "pool", requestedByUserId: tenant.user.id })
      .returning();
    if (!row) throw new Error("reprint not recorded");
    await recordChange(tx, {
      clientId,
      action: "statement.add_to_pool",
      recordKind: "statement",
      recordId: id,
      customerId: statement.customerId,
      before: null,
      after: { resend_id: row.id },
    });
    return resendToApi(row);
  });
}
