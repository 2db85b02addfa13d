import { sql } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { PdfWorker } from "../../pdf/pdf-worker.js";
import { loadBillClient } from "../invoices/bill-layout.pdf.js";
import { sqlArray } from "../ledger/sql-arrays.js";
import type { Mailer } from "../mail/mailer.js";
import { loadStatementDocuments } from "../statements/load-statement-documents.js";
import type { DeliveryServices } from "./delivery-jobs.js";
import { statementEmail } from "./statement-email.js";

/** Sends per batch: statements rendered together in the PDF thread, then mailed one by one. */
const BATCH = 25;
/** Sends tried per email before it stays failed (the job retries with growing delays). */
export const MAX_EMAIL_ATTEMPTS = 5;

type DeliveryRow = { id: string | number; statement_id: string | number; recipient: string };

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
  const tried: number[] = [];
  let sent = 0;
  let failed = 0;
  const worker = new PdfWorker();
  try {
    for (;;) {
      const batch = await queryRows<DeliveryRow>(
        db,
        sql`select id, statement_id, recipient from statement_deliveries
            where client_id = ${clientId} and production_run_id = ${productionRunId} and channel = 'email'
              and (status in ('queued', 'sending')
                   or (status = 'failed' and recipient <> '' and attempts < ${MAX_EMAIL_ATTEMPTS}))
              and id <> all(${sqlArray(tried, "bigint")})
            order by id limit ${BATCH}`,
      );
      if (batch.length === 0) break;
      tried.push(...batch.map((row) => Number(row.id)));
      const loaded = await loadStatementDocuments(
        db,
        clientId,
        batch.map((row) => Number(row.statement_id)),
        { client, publicUrl: services.publicUrl },
      );
      const rendered = await worker.render(loaded.map((statement) => statement.document));
      for (const row of batch) {
        const index = loaded.findIndex((statement) => statement.id === Number(row.statement_id));
        const statement = loaded[index];
        const pdf = rendered.files[index];
        if (!statement || !pdf) continue;
        const messageId = messageIdOf(clientId, statement.id);
        await db.execute(
          sql`update statement_deliveries set status = 'sending', attempts = attempts + 1, updated_at = now()
              where client_id = ${clientId} and id = ${row.id}`,
        );
        try {
          await services.mailer.send(
            statementEmail({
              to: row.recipient,
              document: statement.document,
              pdf,
              payLink: statement.document.payLink ?? services.publicUrl,
              messageId,
            }),
          );
        } catch (error) {
          failed += 1;
          await db.execute(
            sql`update statement_deliveries set status = 'failed', last_error = ${errorText(error)}, updated_at = now()
                where client_id = ${clientId} and id = ${row.id}`,
          );
          continue;
        }
        sent += 1;
        await db.execute(
          sql`update statement_deliveries set status = 'sent', last_error = null, message_id = ${messageId},
                                              sent_at = now(), updated_at = now()
              where client_id = ${clientId} and id = ${row.id}`,
        );
        await db.execute(
          sql`update statements set pages = coalesce(pages, ${rendered.pages[index] ?? 1})
              where client_id = ${clientId} and id = ${statement.id}`,
        );
      }
    }
  } finally {
    await worker.destroy();
  }
  const [retryable] = await queryRows<{ count: string | number }>(
    db,
    sql`select count(*) as count from statement_deliveries
        where client_id = ${clientId} and production_run_id = ${productionRunId} and status = 'failed'
          and recipient <> '' and attempts < ${MAX_EMAIL_ATTEMPTS}`,
  );
  // The job's retry (with backoff) sends them again; the last attempt leaves them failed.
  if (Number(retryable?.count ?? 0) > 0)
    throw new Error(`${Number(retryable?.count)} statement emails failed; they will be retried`);
  return { sent, failed };
}
