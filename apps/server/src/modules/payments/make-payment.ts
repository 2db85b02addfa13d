import { randomUUID } from "node:crypto";
import {
  CARD_EXPIRED_MESSAGE,
  PAYMENT_PENDING_MESSAGE,
  PUBLIC_SAVE_METHOD_MESSAGE,
  cardExpired,
  compareAmounts,
  paymentOverBalanceMessage,
  savedMethodAmountMessage,
  toAmount,
  type PaymentPayload,
  type PaymentResult,
} from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import type { Database } from "../../db/database.js";
import type { AuthContext } from "../../http/auth-context.js";
import { HttpError, fieldError, nonFieldError, unauthorized } from "../../http/errors.js";
import { resolveTenant } from "../tenancy/resolve-tenant.js";
import type { BluepayCustomer } from "./bluepay-client.js";
import type { PaymentGateway } from "./payment-gateway.js";
import {
  findPayableStatement,
  findTenantCustomer,
  statementAmountDue,
  type PayableStatement,
} from "./payment-info.js";
import { claimPaymentLink, findPaymentLink, releasePaymentLink } from "./payment-links.js";
import { admitPublicCharge } from "./payment-throttle.js";
import {
  sendPaymentAttempt,
  toPaymentResult,
  type PaymentAccountInput,
  type PaymentSource,
} from "./send-attempt.js";

export const IDEMPOTENCY_KEY_MESSAGE =
  "The Idempotency-Key header must be 1 to 100 visible characters (letters, digits, - _ . :).";
export const PUBLIC_RECORD_MESSAGE = "Sign in to store a payment method for a customer.";
export const CUSTOMER_REQUIRED_MESSAGE =
  "Name the customer with customer_id, or pay a statement by its statementId.";

export type MakePaymentRequest = {
  auth: AuthContext | null;
  body: PaymentPayload;
  /** The Idempotency-Key header, if sent. */
  idempotencyKey: string | undefined;
  /** The caller's address (the public page is rate-limited by it). */
  address: string;
  /** Called once the attempt is answered: queues the job that emails its receipt. */
  afterAnswer?: (clientId: number) => Promise<void>;
};

/** The header as given, checked; a request without one gets a key of its own (it cannot be retried safely). */
export function idempotencyKeyOf(header: string | undefined): string {
  if (header === undefined) return `auto:${randomUUID()}`;
  const key = header.trim();
  if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(key)) throw new HttpError(400, { detail: IDEMPOTENCY_KEY_MESSAGE });
  return key;
}

function accountOf(body: PaymentPayload): PaymentAccountInput {
  if (body.paymentMethod === "useSaved") return { kind: "stored" };
  if (body.paymentMethod === "check")
    return {
      kind: "ach",
      accountType: body.checkAccountType,
      routing: body.checkRoutingNum,
      account: body.checkAccountNum,
    };
  if (cardExpired(body.expMonth, body.expYear, businessToday()))
    throw fieldError("expYear", CARD_EXPIRED_MESSAGE);
  return { kind: "card", number: body.ccNum, expire: `${body.expMonth}${body.expYear}`, cvv2: body.cvv };
}

function billingOf(body: PaymentPayload, fallback: { firstName: string; lastName: string }): BluepayCustomer {
  return {
    name1: body.firstName || fallback.firstName,
    name2: body.lastName || fallback.lastName,
    addr1: body.billingAddress1,
    addr2: body.billingAddress2,
    city: body.city,
    state: body.state,
    zip: body.postalCode,
    country: body.country,
    phone: `${body.phone1}${body.phone2}${body.phone3}`.replace(/[^0-9+]/g, ""),
    email: body.email,
  };
}

type Payer = {
  clientId: number;
  customerId: number;
  statementId: number | null;
  source: PaymentSource;
  userId: number | null;
  firstName: string;
  lastName: string;
  /** A staff-issued link that lets the public page store a method (used once, on approval). */
  link: PaymentLinkRow | null;
};

type PaymentLinkRow = Awaited<ReturnType<typeof findPaymentLink>>["link"];

/**
 * The public page pays what is owed: more than 0 and at most the balance due, and the stored method
 * only for the statement's amount due. It never stores a method or changes autopay (that takes a
 * staff-issued link).
 */
function checkPublicPayment(body: PaymentPayload, payable: PayableStatement): void {
  if (body.recordPayment) throw nonFieldError(PUBLIC_RECORD_MESSAGE);
  if ((body.savePaymentInfo && body.paymentMethod !== "useSaved") || body.autoPay)
    throw nonFieldError(PUBLIC_SAVE_METHOD_MESSAGE);
  const balance = toAmount(payable.customer.totalBalance);
  if (compareAmounts(body.amount, balance) > 0)
    throw fieldError("amount", paymentOverBalanceMessage(balance));
  if (body.paymentMethod === "useSaved") {
    const due = statementAmountDue(balance, payable.statement);
    if (compareAmounts(due, "0.00") <= 0 || compareAmounts(body.amount, due) !== 0)
      throw fieldError("amount", savedMethodAmountMessage(due));
  }
}

async function payerOf(db: Database, request: MakePaymentRequest): Promise<Payer> {
  const { auth, body } = request;
  const staff = auth !== null && body.customer_id !== undefined;
  if (!staff && body.paymentLink) {
    // A staff-issued link: the customer stores a method (and chooses autopay), paying nothing.
    await admitPublicCharge(db, request.address);
    if (!body.recordPayment) throw nonFieldError(PUBLIC_SAVE_METHOD_MESSAGE);
    const { link, customer } = await findPaymentLink(db, body.paymentLink);
    return {
      clientId: customer.clientId,
      customerId: customer.id,
      statementId: null,
      source: "page",
      userId: null,
      firstName: customer.firstName,
      lastName: customer.lastName,
      link,
    };
  }
  if (!staff && body.statementId) {
    // The public page: only the pay code found by get-payment-info names the customer.
    await admitPublicCharge(db, request.address);
    const payable = await findPayableStatement(db, body.statementId);
    checkPublicPayment(body, payable);
    const { statement, customer } = payable;
    return {
      clientId: customer.clientId,
      customerId: customer.id,
      statementId: statement.id,
      source: "page",
      userId: auth?.user.id ?? null,
      firstName: customer.firstName,
      lastName: customer.lastName,
      link: null,
    };
  }
  if (!auth) throw unauthorized();
  if (body.customer_id === undefined) throw fieldError("customer_id", CUSTOMER_REQUIRED_MESSAGE);
  const tenant = await resolveTenant(db, auth, body.client_id);
  const customer = await findTenantCustomer(db, tenant, body.customer_id);
  return {
    clientId: tenant.clientId,
    customerId: customer.id,
    statementId: null,
    source: "staff",
    userId: auth.user.id,
    firstName: customer.firstName,
    lastName: customer.lastName,
    link: null,
  };
}

/**
 * POST /api/payments/make-payment/customer/: one payment (or, with recordPayment, one stored
 * method) for the customer the pay code or the staff's client_id/customer_id names. 200 whether
 * approved or declined; a retry of a still-pending attempt (same Idempotency-Key) is a 409.
 */
export async function makePayment(
  db: Database,
  gateway: PaymentGateway,
  request: MakePaymentRequest,
): Promise<PaymentResult> {
  const key = idempotencyKeyOf(request.idempotencyKey);
  const payer = await payerOf(db, request);
  const { body } = request;
  const account = accountOf(body);
  // Taken before the call, so two tabs cannot both use one link; given back if not approved.
  if (payer.link) await claimPaymentLink(db, payer.link);
  const fromPage = payer.source === "page";
  const outcome = await sendPaymentAttempt(
    db,
    {
      clientId: payer.clientId,
      customerId: payer.customerId,
      source: payer.source,
      kind: body.recordPayment ? "auth" : "sale",
      amount: body.recordPayment ? "0.00" : body.amount,
      idempotencyKey: key,
      account,
      billing: billingOf(body, payer),
      saveMethod: !fromPage && !body.recordPayment && body.savePaymentInfo && account.kind !== "stored",
      autopay: (!fromPage || payer.link !== null) && body.autoPay,
      statementId: payer.statementId,
      createdByUserId: payer.userId,
      customerIp: payer.source === "page" ? request.address : undefined,
      payerEmail: fromPage ? body.email : "",
      achSignedAgreement: payer.source === "staff" && account.kind === "ach" && body.achSignedAgreement,
      // Checked again under the customer's lock, less the sales still in flight (parallel requests).
      boundByBalance: fromPage && !body.recordPayment,
    },
    gateway,
  ).catch(async (error: unknown) => {
    if (payer.link) await releasePaymentLink(db, payer.link);
    throw error;
  });
  const open = outcome.status === "pending" || outcome.status === "unknown";
  if (payer.link && outcome.status !== "approved" && !open) await releasePaymentLink(db, payer.link);
  if (!open) await request.afterAnswer?.(payer.clientId);
  if (open && outcome.replayed) throw new HttpError(409, { detail: PAYMENT_PENDING_MESSAGE });
  return toPaymentResult(outcome);
}
