import { and, eq } from "drizzle-orm";
import {
  ACH_STORE_NEEDS_PAYMENT_MESSAGE,
  NEEDS_CHECKING_MESSAGE,
  UNKNOWN_ANSWER_MESSAGE,
  NO_STORED_METHOD_MESSAGE,
  needsCheckingAtGateway,
  toAmount,
  type PaymentAttemptStatus,
  type PaymentResult,
} from "@cyclebill/domain";
import { currentClock } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { customerPaymentMethods, customers, paymentAttempts } from "../../db/tables.js";
import { HttpError, nonFieldError, notFound } from "../../http/errors.js";
import {
  buildRequest,
  callGateway,
  callOptionsOf,
  type BluepayCredentials,
  type BluepayCustomer,
  type BluepayPaymentAccount,
} from "./bluepay-client.js";
import { chargeMarks, type PaymentSource, type StoredMethodToCharge } from "./charge-marks.js";
import { refuseDoNotDebit } from "./do-not-debit.js";
import { gatewayAccess, type PaymentGateway } from "./payment-gateway.js";
import { readAttempt, recordAnswer, type AttemptRow } from "./record-answer.js";
import { NOT_SENT_MESSAGE, settleAttempt } from "./settle-attempts.js";
import { callEvidenceOf, markUnknown, openAttempt } from "./unknown-attempts.js";

// One charge (SALE) or one stored method ($0.00 AUTH), safe to retry: the attempt is saved and
// committed under its idempotency key BEFORE the gateway is called, with its ORDER_ID (this
// installation's id and the attempt's), so an answer lost or unusable makes the attempt "unknown",
// settled by asking the gateway for that order, and the customer is not charged again meanwhile.

export type { PaymentSource, StoredMethodToCharge } from "./charge-marks.js";

/** The account to charge: the customer's stored method (MASTER_ID), or one typed in and never kept. */
export type PaymentAccountInput =
  | { kind: "stored" }
  | { kind: "card"; number: string; /** MMYY */ expire: string; cvv2?: string }
  | { kind: "ach"; accountType: "C" | "S"; routing: string; account: string };

export type SendPaymentInput = {
  clientId: number;
  customerId: number;
  source: PaymentSource;
  kind: "sale" | "auth";
  /** Dollars ("12.50"); an AUTH stores the method for 0.00 whatever is given. */
  amount: string;
  /** Unique per client: the same key twice is the same payment (the second call returns the first). */
  idempotencyKey: string;
  cardRunId?: number | null;
  account: PaymentAccountInput;
  billing?: BluepayCustomer;
  /** A sale that also keeps its method for later charges. */
  saveMethod?: boolean;
  /** Set the customer's autopay flag once the method is stored. */
  autopay?: boolean;
  statementId?: number | null;
  createdByUserId?: number | null;
  /** The payer's address (public page charges): CUSTOMER_IP, for the gateway's fraud screening. */
  customerIp?: string;
  /** Let an identical recent charge through (a card run: another customer shares this card and amount). */
  duplicateOverride?: boolean;
  /** The public page: the amount may not exceed the balance owed less the sales in flight (checked under the customer's lock). */
  boundByBalance?: boolean;
  /** The email the payer typed on the public page (the receipt goes there). */
  payerEmail?: string;
  /** A bank account keyed by staff: a signed written authorization is on file (PPD). */
  achSignedAgreement?: boolean;
  /**
   * Runs the gateway call itself (a card run's bound on calls in flight): the attempt is already
   * committed when it starts, and the answer is recorded after it ends, outside the bound.
   */
  gatewayLane?: <T>(call: () => Promise<T>) => Promise<T>;
};

export type PaymentOutcome = {
  attemptId: number;
  status: PaymentAttemptStatus;
  approved: boolean;
  /** message_response: paymentPageMessage of the gateway's answer. */
  message: string;
  name1: string;
  name2: string;
  amount: string;
  gatewayTransId: string;
  transactionId: number | null;
  /** The customer's balance after the attempt. */
  accountBalance: string;
  /** True when the idempotency key named an earlier attempt and nothing new was sent. */
  replayed: boolean;
};

export const PENDING_ANSWER_MESSAGE = "Waiting for the payment gateway's answer.";
export const KEY_REUSED_MESSAGE =
  "This Idempotency-Key was already used for another payment (a different amount, customer or payment method).";

function maskOf(account: PaymentAccountInput): string {
  if (account.kind === "card")
    return "x".repeat(Math.max(0, account.number.length - 4)) + account.number.slice(-4);
  if (account.kind === "ach")
    return `${account.accountType}:${account.routing}:xxxx${account.account.slice(-4)}`;
  return "";
}

async function outcomeOf(db: Database, attempt: AttemptRow, replayed: boolean): Promise<PaymentOutcome> {
  const [customer] = await db
    .select({ balance: customers.totalBalance })
    .from(customers)
    .where(and(eq(customers.clientId, attempt.clientId), eq(customers.id, attempt.customerId)));
  return {
    attemptId: attempt.id,
    status: attempt.status,
    approved: attempt.status === "approved",
    message:
      attempt.status === "pending"
        ? PENDING_ANSWER_MESSAGE
        : attempt.status !== "unknown"
          ? attempt.message
          : needsCheckingAtGateway(attempt.status, attempt.createdAt, currentClock().now())
            ? NEEDS_CHECKING_MESSAGE
            : attempt.message || UNKNOWN_ANSWER_MESSAGE,
    name1: attempt.name1,
    name2: attempt.name2,
    amount: toAmount(attempt.amount),
    gatewayTransId: attempt.gatewayTransId,
    transactionId: attempt.transactionId,
    accountBalance: toAmount(customer?.balance ?? "0"),
    replayed,
  };
}

/** The spec's payment result from an outcome. */
export function toPaymentResult(outcome: PaymentOutcome): PaymentResult {
  return {
    name1: outcome.name1,
    name2: outcome.name2,
    amount_response: outcome.amount,
    message_response: outcome.message,
    approved: outcome.approved,
    status: outcome.status,
    account_balance: outcome.accountBalance,
  };
}

async function attemptByKey(db: Database, clientId: number, key: string): Promise<AttemptRow | null> {
  const [row] = await db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.clientId, clientId), eq(paymentAttempts.idempotencyKey, key)));
  return row ?? null;
}

const lastDigits = (mask: string) => mask.replace(/[^0-9]/g, "").slice(-4);

/**
 * Whether a retry asks for the same payment as the attempt its key names: same customer, kind,
 * amount and method (stored, or a typed account ending in the same digits; the gateway may answer
 * with its own mask, so only the last four are compared).
 */
function sameRequest(attempt: AttemptRow, input: SendPaymentInput): boolean {
  if (attempt.customerId !== input.customerId || attempt.kind !== input.kind) return false;
  if (input.kind === "sale" && toAmount(attempt.amount) !== toAmount(input.amount)) return false;
  if (attempt.usedStoredMethod !== (input.account.kind === "stored")) return false;
  if (input.account.kind === "stored") return true;
  if (attempt.method !== (input.account.kind === "ach" ? "ach" : "card")) return false;
  return lastDigits(attempt.mask) === lastDigits(maskOf(input.account));
}

/**
 * A retry of a known attempt: settle it if it is still pending, and answer what it became. The same
 * key with a different payment is refused with 422 (as Stripe does), never answered with the first.
 */
async function replay(
  db: Database,
  attempt: AttemptRow,
  input: SendPaymentInput,
  gateway: PaymentGateway,
): Promise<PaymentOutcome> {
  if (!sameRequest(attempt, input)) throw new HttpError(422, { detail: KEY_REUSED_MESSAGE });
  if (attempt.status === "pending" || attempt.status === "unknown") await settleAttempt(db, attempt, gateway);
  return outcomeOf(db, await readAttempt(db, attempt.clientId, attempt.id), true);
}

/** The customer's names and company, as the attempt and the gateway take them. */
export type ChargedCustomer = { firstName: string; lastName: string; companyName: string };

/**
 * What a charge needs besides its input, read beforehand: a card run reads it for a whole chunk
 * (one query per customer, the gateway access once), a single payment reads it here.
 */
export type PreparedCharge = {
  customer: ChargedCustomer;
  /** Required when the input's account is the stored method. */
  stored: StoredMethodToCharge | null;
  access: { url: string; credentials: BluepayCredentials };
};

/**
 * Sends one payment attempt and records how it ended. Refusals before anything is saved (unknown
 * customer: 404; no gateway, no client key, no stored method: 400) throw. Approved, declined,
 * error, duplicate and still-pending attempts all come back as an outcome.
 */
export async function sendPaymentAttempt(
  db: Database,
  input: SendPaymentInput,
  gateway: PaymentGateway,
): Promise<PaymentOutcome> {
  const earlier = await attemptByKey(db, input.clientId, input.idempotencyKey);
  if (earlier) return replay(db, earlier, input, gateway);

  const [customer] = await db
    .select({
      firstName: customers.firstName,
      lastName: customers.lastName,
      companyName: customers.companyName,
    })
    .from(customers)
    .where(
      and(
        eq(customers.clientId, input.clientId),
        eq(customers.id, input.customerId),
        eq(customers.deleted, false),
      ),
    );
  if (!customer) throw notFound();
  const access = await gatewayAccess(db, gateway, input.clientId);
  let stored: StoredMethodToCharge | null = null;
  if (input.account.kind === "stored") {
    const [method] = await db
      .select({
        token: customerPaymentMethods.token,
        kind: customerPaymentMethods.kind,
        mask: customerPaymentMethods.mask,
        cardType: customerPaymentMethods.cardType,
        storedId: customerPaymentMethods.storedId,
        achSignedAgreement: customerPaymentMethods.achSignedAgreement,
        achEntryClass: customerPaymentMethods.achEntryClass,
      })
      .from(customerPaymentMethods)
      .where(
        and(
          eq(customerPaymentMethods.clientId, input.clientId),
          eq(customerPaymentMethods.customerId, input.customerId),
        ),
      );
    if (!method) throw nonFieldError(NO_STORED_METHOD_MESSAGE);
    stored = method;
  }
  const sent = await sendPreparedAttempt(db, input, { customer, stored, access }, gateway);
  return outcomeOf(db, sent.attempt, sent.replayed);
}

/**
 * Saves and commits the attempt, calls the gateway and records its answer, from what was read
 * beforehand. The same key twice is the same payment: the first attempt is settled and answered
 * (replayed), or a different payment under it is refused with 422. Answers the attempt as it ended.
 */
export async function sendPreparedAttempt(
  db: Database,
  input: SendPaymentInput,
  prepared: PreparedCharge,
  gateway: PaymentGateway,
): Promise<{ attempt: AttemptRow; replayed: boolean }> {
  const { customer, stored, access } = prepared;
  if (input.account.kind === "stored" && !stored) throw nonFieldError(NO_STORED_METHOD_MESSAGE);
  const fromStored = input.account.kind === "stored" ? stored : null;
  await refuseDoNotDebit(db, input.clientId, input.customerId, fromStored);
  const masterId = fromStored?.token ?? "";
  const method: "card" | "ach" = fromStored?.kind ?? (input.account.kind === "ach" ? "ach" : "card");
  // BluePay takes no $0.00 AUTH for ACH ("not supported for ACH"): an account is stored by a sale.
  if (input.kind === "auth" && method === "ach") throw nonFieldError(ACH_STORE_NEEDS_PAYMENT_MESSAGE);
  const amount = input.kind === "auth" ? "0.00" : toAmount(input.amount);
  const marks = chargeMarks(input, method, fromStored, customer.companyName);
  const name1 = (input.billing?.name1 ?? customer.firstName).trim().slice(0, 80);
  const name2 = (input.billing?.name2 ?? customer.lastName).trim().slice(0, 80);

  // Saved and committed before the call: whatever happens next, the attempt exists.
  const inserted = await openAttempt(
    db,
    gateway.installationId,
    {
      clientId: input.clientId,
      customerId: input.customerId,
      statementId: input.statementId ?? null,
      idempotencyKey: input.idempotencyKey,
      kind: input.kind,
      source: input.source,
      method,
      usedStoredMethod: input.account.kind === "stored",
      amount,
      masterId,
      mask: fromStored?.mask || maskOf(input.account),
      cardType: fromStored?.cardType ?? "",
      expiry: input.account.kind === "card" ? input.account.expire : "",
      name1,
      name2,
      saveMethod: input.kind === "auth" || (input.saveMethod ?? false),
      autopay: input.autopay ?? false,
      cardRunId: input.cardRunId ?? null,
      createdByUserId: input.createdByUserId ?? null,
      // The app's clock, as the query about a lost answer will be (not the database's now()).
      createdAt: currentClock().now(),
      payerEmail: (input.payerEmail ?? "").slice(0, 254),
      docType: marks.docType ?? "",
      achSignedAgreement: method === "ach" && (input.achSignedAgreement ?? false),
    },
    {
      refuseWhileInFlight: input.kind === "sale",
      boundByBalance: input.kind === "sale" && (input.boundByBalance ?? false),
    },
  );
  if (!inserted) {
    // The key was used before (a replayed chunk, or another request that got there first).
    const first = await attemptByKey(db, input.clientId, input.idempotencyKey);
    if (!first) throw new Error("payment attempt vanished");
    if (!sameRequest(first, input)) throw new HttpError(422, { detail: KEY_REUSED_MESSAGE });
    if (first.status === "pending" || first.status === "unknown") await settleAttempt(db, first, gateway);
    return { attempt: await readAttempt(db, first.clientId, first.id), replayed: true };
  }

  const account: BluepayPaymentAccount | undefined =
    input.account.kind === "stored" ? undefined : input.account;
  const fields = buildRequest(access.credentials, {
    transType: input.kind === "auth" ? "AUTH" : "SALE",
    mode: gateway.mode,
    amount,
    account,
    masterId: masterId || undefined,
    customer: { ...input.billing, name1, name2 },
    orderId: inserted.orderId,
    ...marks,
  });
  const call = () => callGateway(access.url, fields, callOptionsOf(access.credentials, gateway.timeoutMs));
  const answer = await (input.gatewayLane ? input.gatewayLane(call) : call());
  let settled: AttemptRow | null = null;
  if (answer.status !== "no-answer")
    settled = await recordAnswer(db, input.clientId, inserted.id, answer, input.customerId);
  else if (!answer.maybeProcessed)
    settled = await recordAnswer(
      db,
      input.clientId,
      inserted.id,
      { status: "error", message: NOT_SENT_MESSAGE },
      input.customerId,
    );
  else {
    // Maybe charged: unknown until a lookup finds this very attempt (never charged again meanwhile).
    const unknown = await markUnknown(db, inserted, callEvidenceOf(answer, currentClock().now()));
    if (unknown) await settleAttempt(db, unknown, gateway);
  }
  return { attempt: settled ?? (await readAttempt(db, input.clientId, inserted.id)), replayed: false };
}
