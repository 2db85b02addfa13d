import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { pdfPool } from "../../pdf/pdf-pool.js";
import { loadBillClient } from "../invoices/bill-parties.js";
import { setStatementPages } from "../statements/statement-marks.js";
import type { Mailer } from "../mail/mailer.js";
import { loadStatementDocuments } from "../statements/load-statement-documents.js";
import type { DeliveryServices } from "./delivery-jobs.js";
import { statementEmail } from "./statement-email.js";
import { claimWentOut, settleWentOut, type WentOutThing } from "./went-out.js";

/** Emails per batch: their statements drawn on the PDF threads (in slices of RENDER_SLICE). */
const BATCH = 100;
const RENDER_SLICE = 25;
/**
 * Emails handed to the mail server at once (nodemailer's pool keeps its connections open): also
 * the most a worker killed mid-batch can send twice (each lane has at most one email between the
 * server's acceptance and our record; docs/production.md).
 */
export const SENDS_AT_ONCE = 10;
/** Sends tried per email before it stays failed (the job retries with growing delays). */
export const MAX_EMAIL_ATTEMPTS = 5;

const deliveryRowSchema = z.object({ id: dbInt, statement_id: dbInt, recipient: dbText });
const countRowSchema = z.object({ count: dbInt });
const claimedRowSchema = z.object({ id: dbInt });

/**
 * One transaction right before the send: the email's went_out claim (under the run part's share
 * lock), then its delivery marked sending. False when nothing was claimed: the part was undone, or
 * its delivery is gone (withdrawn) or already sent; the transaction then rolls back.
 */
async function claimEmail(db: Database, thing: WentOutThing, deliveryId: number): Promise<boolean> {
  const skipped = new Error("not claimed");
  try {
    await db.transaction(async (tx) => {
      if ((await claimWentOut(tx, thing)) === "withdrawn") throw skipped;
      const marked = await queryRows(
        tx,
        sql`update statement_deliveries set status = 'sending', attempts = attempts + 1, updated_at = now()
            where client_id = ${thing.clientId} and id = ${deliveryId} and status <> 'sent'
            returning id`,
        claimedRowSchema,
      );
      if (marked.length === 0) throw skipped;
    });
    return true;
  } catch (error) {
    if (error === skipped) return false;
    throw error;
  }
}

function messageIdOf(clientId: number, statementId: number): string {
  return `<statement-${clientId}-${statementId}@cyclebill.local>`;
}

/** Whether the mail server answered the send with a refusal (nodemailer sets its SMTP reply code). */
function serverRefused(error: unknown): boolean {
  return error instanceof Error && "responseCode" in error && typeof error.responseCode === "number";
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

/**
 * Emails a run part's queued statements, each with its PDF and pay link. Each send is claimed
 * (went_out, delivery "sending") right before it goes and recorded after (sent or failed), so a
 * job resumed after a crash never resends what the mail server accepted; only an email caught
 * between the server's acceptance and our record is sent again, under the same Message-ID (at most
 * one per lane). Failures are retried by the job, with backoff.
 */
export async function sendStatementEmails(
  db: Database,
  services: DeliveryServices & { mailer: Mailer },
  input: { clientId: number; productionRunId: number },
): Promise<{ sent: number; failed: number }> {
  const { clientId, productionRunId } = input;
  const client = await loadBillClient(db, clientId);
  // Batches go by id: each call tries every email once (a failure waits for the job's retry). The
  // last id read, not a list of those tried, keeps each batch's query as cheap as the first.
  let lastId = 0;
  let sent = 0;
  let failed = 0;
  const threads = pdfPool();
  const readBatch = async () => {
    const batch = await queryRows(
      db,
      sql`select id, statement_id, recipient from statement_deliveries
          where client_id = ${clientId} and production_run_id = ${productionRunId} and channel = 'email'
            and (status in ('queued', 'sending')
                 or (status = 'failed' and recipient <> '' and attempts < ${MAX_EMAIL_ATTEMPTS}))
            and id > ${lastId}
          order by id limit ${BATCH}`,
      deliveryRowSchema,
    );
    lastId = Math.max(lastId, ...batch.map((row) => row.id));
    const loaded = await loadStatementDocuments(
      db,
      clientId,
      batch.map((row) => row.statement_id),
      { client, publicUrl: services.publicUrl },
    );
    // Slices drawn side by side on the threads, in the batch's order.
    const slices: Promise<{ files: Buffer[]; pages: number[] }>[] = [];
    for (let start = 0; start < loaded.length; start += RENDER_SLICE)
      slices.push(
        threads.render(loaded.slice(start, start + RENDER_SLICE).map((statement) => statement.document)),
      );
    const drawn = await Promise.all(slices);
    return {
      batch,
      loaded,
      files: drawn.flatMap((slice) => slice.files),
      pages: drawn.flatMap((slice) => slice.pages),
    };
  };
  // The next batch is read and drawn while this one is sent.
  let next = readBatch();
  for (;;) {
    const { batch, loaded, files, pages } = await next;
    if (batch.length === 0) break;
    next = readBatch();
    next.catch(() => undefined);
    const ready = batch.flatMap((row) => {
      const index = loaded.findIndex((statement) => statement.id === row.statement_id);
      const statement = loaded[index];
      const pdf = files[index];
      return statement && pdf ? [{ row, statement, pdf, pages: pages[index] ?? 1 }] : [];
    });
    const accepted: typeof ready = [];
    let position = 0;
    const lane = async () => {
      for (let email = ready[position++]; email; email = ready[position++]) {
        const statementId = email.statement.id;
        const thing = { clientId, productionRunId, kind: "email" as const, ref: statementId, statementId };
        await services.pause?.("claim", statementId);
        // Claimed right before it goes, under the run part's share lock: an undo that committed
        // first leaves nothing to claim (withdrawn, or the delivery row gone); one that comes after
        // finds the claim and refuses. A crash leaves at most this lane's one email "sending".
        if (!(await claimEmail(db, thing, email.row.id))) continue;
        await services.pause?.("send", statementId);
        const messageId = messageIdOf(clientId, statementId);
        try {
          await services.mailer.send(
            statementEmail({
              to: email.row.recipient,
              document: email.statement.document,
              pdf: email.pdf,
              payLink: email.statement.document.payLink ?? null,
              messageId,
            }),
          );
        } catch (error) {
          failed += 1;
          // Only a refusal the server answered is known not to have gone out; a send that ended
          // without an answer (a dropped connection, a timeout) may have, so its claim stands.
          const refused = serverRefused(error);
          await db.transaction(async (tx) => {
            await tx.execute(
              sql`update statement_deliveries set status = 'failed', last_error = ${errorText(error)}, updated_at = now()
                  where client_id = ${clientId} and id = ${email.row.id}`,
            );
            if (refused) await settleWentOut(tx, thing, "refused");
          });
          continue;
        }
        // Recorded the moment the server accepts it, not after the batch: a worker killed while
        // another email of the batch stalls must not send this one again.
        await db.transaction(async (tx) => {
          await tx.execute(
            sql`update statement_deliveries set status = 'sent', last_error = null, message_id = ${messageId},
                                                sent_at = now(), updated_at = now()
                where client_id = ${clientId} and id = ${email.row.id}`,
          );
          await settleWentOut(tx, thing, "done");
        });
        accepted.push(email);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SENDS_AT_ONCE, ready.length) }, lane));
    if (accepted.length === 0) continue;
    sent += accepted.length;
    await setStatementPages(
      db,
      clientId,
      accepted.map((email) => ({ statementId: email.statement.id, pages: email.pages })),
      true,
    );
  }
  const [retryable] = await queryRows(
    db,
    sql`select count(*) as count from statement_deliveries
        where client_id = ${clientId} and production_run_id = ${productionRunId} and status = 'failed'
          and recipient <> '' and attempts < ${MAX_EMAIL_ATTEMPTS}`,
    countRowSchema,
  );
  // The job's retry (with backoff) sends them again; the last attempt leaves them failed.
  if ((retryable?.count ?? 0) > 0)
    throw new Error(`${Number(retryable?.count)} statement emails failed; they will be retried`);
  return { sent, failed };
}
