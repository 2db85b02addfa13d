import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { pdfPool } from "../../pdf/pdf-pool.js";
import { loadBillClient } from "../invoices/bill-parties.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import { setStatementPages } from "../statements/statement-marks.js";
import type { Mailer } from "../mail/mailer.js";
import { loadStatementDocuments } from "../statements/load-statement-documents.js";
import type { DeliveryServices } from "./delivery-jobs.js";
import { statementEmail } from "./statement-email.js";

/** Emails per batch: their statements drawn on the PDF threads (in slices of RENDER_SLICE). */
const BATCH = 100;
const RENDER_SLICE = 25;
/** Emails handed to the mail server at once (nodemailer's pool keeps its connections open). */
const SENDS_AT_ONCE = 10;
/** Sends tried per email before it stays failed (the job retries with growing delays). */
export const MAX_EMAIL_ATTEMPTS = 5;

const deliveryRowSchema = z.object({ id: dbInt, statement_id: dbInt, recipient: dbText });
const countRowSchema = z.object({ count: dbInt });

function messageIdOf(clientId: number, statementId: number): string {
  return `<statement-${clientId}-${statementId}@cyclebill.local>`;
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

/**
 * Emails a run part's queued statements, each with its PDF and pay link. Each send is recorded
 * before and after (sending, then sent or failed), so a job resumed after a crash never resends
 * what the mail server accepted; only an email caught between the server's acceptance and our
 * record is sent again, under the same Message-ID. Failures are retried by the job, with backoff.
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
    // Each one recorded as being sent before it goes: a crash leaves it "sending", not unsent.
    await db.execute(
      sql`update statement_deliveries set status = 'sending', attempts = attempts + 1, updated_at = now()
          where client_id = ${clientId} and id = any(${sqlArray(
            ready.map((email) => email.row.id),
            "bigint",
          )})`,
    );
    const accepted: typeof ready = [];
    let position = 0;
    const lane = async () => {
      for (let email = ready[position++]; email; email = ready[position++]) {
        const messageId = messageIdOf(clientId, email.statement.id);
        try {
          await services.mailer.send(
            statementEmail({
              to: email.row.recipient,
              document: email.statement.document,
              pdf: email.pdf,
              payLink: email.statement.document.payLink ?? services.publicUrl,
              messageId,
            }),
          );
          // Recorded the moment the server accepts it, not after the batch: a worker killed while
          // another email of the batch stalls must not send this one again.
          await db.execute(
            sql`update statement_deliveries set status = 'sent', last_error = null, message_id = ${messageId},
                                                sent_at = now(), updated_at = now()
                where client_id = ${clientId} and id = ${email.row.id}`,
          );
          accepted.push(email);
        } catch (error) {
          failed += 1;
          await db.execute(
            sql`update statement_deliveries set status = 'failed', last_error = ${errorText(error)}, updated_at = now()
                where client_id = ${clientId} and id = ${email.row.id}`,
          );
        }
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
