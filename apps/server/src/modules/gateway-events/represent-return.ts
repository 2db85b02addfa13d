import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { customers, gatewayEvents, paymentAttempts } from "../../db/tables.js";
import { HttpError } from "../../http/errors.js";
import { gatewayAccess, type PaymentGateway } from "../payments/payment-gateway.js";
import { sendPreparedAttempt } from "../payments/send-attempt.js";

// Presenting a returned ACH debit again (R01/R09, when the client allows it): applyGatewayEvent
// records a "re_presented" event, keyed by the return, in the transaction that reverses the
// payment; the SALE goes out afterwards, never inside a database transaction, through the
// ordinary send path under a key made of the original attempt and the event, so a crash between
// the two, or two senders, still sends it once. The event then names the new attempt.

/** Sends every re-presentment recorded but not yet sent (of one client, or of all). */
export async function sendDueRepresentments(
  db: Database,
  gateway: PaymentGateway,
  clientId?: number,
): Promise<number> {
  const due = await db
    .select({
      clientId: gatewayEvents.clientId,
      id: gatewayEvents.id,
      originalTransId: gatewayEvents.originalTransId,
    })
    .from(gatewayEvents)
    .where(
      and(
        eq(gatewayEvents.kind, "re_presented"),
        isNull(gatewayEvents.attemptId),
        clientId === undefined ? undefined : eq(gatewayEvents.clientId, clientId),
      ),
    )
    .orderBy(gatewayEvents.clientId, gatewayEvents.id)
    .limit(100);
  let sent = 0;
  for (const event of due) if (await sendOne(db, gateway, event)) sent += 1;
  return sent;
}

async function sendOne(
  db: Database,
  gateway: PaymentGateway,
  event: { clientId: number; id: number; originalTransId: string },
): Promise<boolean> {
  const [original] = await db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.clientId, event.clientId),
        eq(paymentAttempts.gatewayTransId, event.originalTransId),
        eq(paymentAttempts.kind, "sale"),
      ),
    )
    .limit(1);
  const [customer] = original
    ? await db
        .select({
          firstName: customers.firstName,
          lastName: customers.lastName,
          companyName: customers.companyName,
          deleted: customers.deleted,
        })
        .from(customers)
        .where(and(eq(customers.clientId, event.clientId), eq(customers.id, original.customerId)))
    : [];
  if (!original || !customer || customer.deleted) return false;
  let attemptId: number;
  try {
    const access = await gatewayAccess(db, gateway, event.clientId);
    const { attempt } = await sendPreparedAttempt(
      db,
      {
        clientId: event.clientId,
        customerId: original.customerId,
        // The original's source keeps its ACH entry class (WEB stays WEB), as NACHA asks of a retry.
        source: original.source,
        kind: "sale",
        amount: original.amount,
        idempotencyKey: `re-present:${original.id}:${event.id}`,
        account: { kind: "stored" },
        // A deliberate second debit of the same account and amount.
        duplicateOverride: true,
        createdByUserId: null,
      },
      {
        customer,
        // The original sale's TRANS_ID names the account at the gateway (its MASTER_ID).
        stored: {
          token: original.gatewayTransId,
          kind: original.method,
          mask: original.mask,
          cardType: original.cardType,
          storedId: "",
          achSignedAgreement: original.achSignedAgreement,
          achEntryClass: original.docType,
        },
        access,
      },
      gateway,
    );
    attemptId = attempt.id;
  } catch (error) {
    // No key or gateway any more: left for a later round, nothing was sent.
    if (error instanceof HttpError && error.status < 500) return false;
    throw error;
  }
  await db
    .update(gatewayEvents)
    .set({ attemptId })
    .where(
      and(
        eq(gatewayEvents.clientId, event.clientId),
        eq(gatewayEvents.id, event.id),
        sql`${gatewayEvents.attemptId} is null`,
      ),
    );
  return true;
}
