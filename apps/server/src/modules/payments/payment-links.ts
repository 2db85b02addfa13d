import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { PAYMENT_LINK_INVALID_MESSAGE, type PaymentLink } from "@cyclebill/domain";
import { currentClock } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { customers, paymentLinks } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { HttpError } from "../../http/errors.js";
import { findTenantCustomer } from "./payment-info.js";
import { recordChange } from "../audit/record-change.js";

// Storing a payment method or enrolling in autopay from outside the office takes a link staff
// issue from the customer's payments area: single use, 7 days. The token is shown once; only its
// SHA-256 is kept, so the table cannot be used to pay for anyone. Expiry is set and checked by the
// app's clock (clock.ts), never the database's now(), so both sides use one time.

export const PAYMENT_LINK_DAYS = 7;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

export function paymentLinkInvalid(): HttpError {
  return new HttpError(404, { detail: PAYMENT_LINK_INVALID_MESSAGE });
}

/** POST /api/customers/{id}/payment-link/: a new link for the customer (earlier ones stay valid until used or expired). */
export async function issuePaymentLink(
  db: Database,
  tenant: TenantContext,
  customerId: number,
  input: { userId: number; publicUrl: string },
): Promise<PaymentLink> {
  const customer = await findTenantCustomer(db, tenant, customerId);
  if (customer.deleted) throw new HttpError(404, { detail: "Not found." });
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(currentClock().now().getTime() + PAYMENT_LINK_DAYS * 86_400_000);
  await db.transaction(async (tx) => {
    const [link] = await tx
      .insert(paymentLinks)
      .values({
        clientId: tenant.clientId,
        customerId,
        tokenHash: hashOf(token),
        expiresAt,
        createdByUserId: input.userId,
      })
      .returning({ id: paymentLinks.id });
    // The link itself is a secret: the trail says only that one was issued and until when.
    await recordChange(tx, {
      clientId: tenant.clientId,
      action: "payment_link.issue",
      recordKind: "payment_link",
      recordId: link?.id ?? 0,
      customerId,
      before: null,
      after: { expires_at: expiresAt.toISOString() },
    });
  });
  const query = new URLSearchParams({ link: token, recordPayment: "true" });
  return { url: `${input.publicUrl}/payments?${query.toString()}`, expires_at: expiresAt.toISOString() };
}

type LinkRow = typeof paymentLinks.$inferSelect;

/** The customer an unused, unexpired link names; 404 with the page's message otherwise. */
export async function findPaymentLink(
  db: Executor,
  token: string,
): Promise<{ link: LinkRow; customer: typeof customers.$inferSelect }> {
  const [row] = await db
    .select({ link: paymentLinks, customer: customers })
    .from(paymentLinks)
    .innerJoin(
      customers,
      and(eq(customers.clientId, paymentLinks.clientId), eq(customers.id, paymentLinks.customerId)),
    )
    .where(
      and(
        eq(paymentLinks.tokenHash, hashOf(token)),
        isNull(paymentLinks.usedAt),
        gt(paymentLinks.expiresAt, currentClock().now()),
      ),
    );
  if (!row || row.customer.deleted) throw paymentLinkInvalid();
  return row;
}

/** Takes the link for one attempt (two tabs cannot both use it); 404 when it is no longer usable. */
export async function claimPaymentLink(db: Executor, link: LinkRow): Promise<void> {
  const claimed = await db
    .update(paymentLinks)
    .set({ usedAt: currentClock().now() })
    .where(
      and(
        eq(paymentLinks.clientId, link.clientId),
        eq(paymentLinks.id, link.id),
        isNull(paymentLinks.usedAt),
        gt(paymentLinks.expiresAt, currentClock().now()),
      ),
    )
    .returning({ id: paymentLinks.id });
  if (claimed.length === 0) throw paymentLinkInvalid();
}

/** A declined or failed store gives the link back, so the customer can try another card. */
export async function releasePaymentLink(db: Executor, link: LinkRow): Promise<void> {
  await db
    .update(paymentLinks)
    .set({ usedAt: null })
    .where(and(eq(paymentLinks.clientId, link.clientId), eq(paymentLinks.id, link.id)));
}
