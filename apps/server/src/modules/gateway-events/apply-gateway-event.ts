import { and, eq, sql } from "drizzle-orm";
import {
  achReturnText,
  doNotDebitReason,
  marksDoNotDebit,
  maskCorrectedData,
  mayRepresent,
  nocText,
  returnFeeDue,
} from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import { clients, customers, gatewayEvents, paymentAttempts } from "../../db/tables.js";
import { lockCustomers } from "../ledger/lock-customers.js";
import { moneyTransaction } from "../ledger/money-transaction.js";
import type { PaymentGateway } from "../payments/payment-gateway.js";
import { lockedAttempt } from "../payments/record-answer.js";
import type { AttemptRow } from "../payments/attempt-row.js";
import {
  historyOfEntry,
  originalAttemptIdOf,
  postPaymentBack,
  postPaymentReversal,
  postReturnFee,
} from "./event-postings.js";
import { sendDueRepresentments } from "./represent-return.js";
import { setCustomerGatewayState } from "../customers/customer-gateway-state.js";
import { markDoNotDebit } from "../payments/stored-method-token.js";
import { recordSettlement } from "../payments/attempt-settlement.js";
import { recordChange } from "../audit/record-change.js";

// The one door through which what the gateway reports after its first answer reaches our books:
// the daily reports (reconciliation), Trans Notify posts (once a lookup confirms them) and a
// person all call applyGatewayEvent. The event's unique key (client, kind, its gateway record)
// makes a report read twice, or a post and a report of the same return, apply once.

export type GatewayEventKind = "settled" | "returned" | "charged_back" | "chargeback_reversed" | "noc";

export type GatewayEventInput = {
  clientId: number;
  kind: GatewayEventKind;
  /** The event's own record at the gateway (a REJECT's TRANS_ID); for "settled", the sale's. */
  gatewayTransId: string;
  /** The TRANS_ID of our sale the event is about. */
  originalTransId: string;
  /** R01… for returns, C01… for a NOC, the network's reason code for a chargeback; "" for settled. */
  code: string;
  reason: string;
  /** Dollars as a decimal string. */
  amount: string;
  /** YYYY-MM-DD: the day the gateway dated it (settlement date, return date). */
  date: string;
  source: "report" | "notify" | "manual";
  /** NOC: the corrected data, masked. */
  correctedData?: string;
  createdByUserId?: number | null;
};

export type AppliedGatewayEvent = {
  /** false: this event was applied before (or matched nothing of ours and was only recorded). */
  applied: boolean;
  eventId: number | null;
  attemptId: number | null;
  /** The ledger entry the event posted (a reversal, or the payment posted back), if any. */
  transactionId?: number | null;
  /** The return fee's charge, if one was posted. */
  feeTransactionId?: number | null;
  /** A re-presentment of the entry is due (sent at once when a gateway is given, else by the job). */
  represent?: boolean;
};

/** What applying may do beyond the books: with a gateway, a due re-presentment is sent at once. */
export type ApplyGatewayEventOptions = { gateway?: PaymentGateway };

/** "Chargeback 4837 No cardholder authorization" (the network's code and the gateway's reason). */
function chargebackText(event: GatewayEventInput, reversed: boolean): string {
  const words = [reversed ? "Chargeback reversed" : "Chargeback", event.code.trim(), event.reason.trim()];
  return words.filter(Boolean).join(" ");
}

function eventText(event: GatewayEventInput): string {
  if (event.kind === "returned") return achReturnText(event.code, event.reason);
  if (event.kind === "noc") return nocText(event.code);
  return chargebackText(event, event.kind === "chargeback_reversed");
}

async function setCustomerStatus(tx: Executor, attempt: AttemptRow, message: string, autopayOff: boolean) {
  await setCustomerGatewayState(
    tx,
    { clientId: attempt.clientId, customerId: attempt.customerId },
    { message, ...(autopayOff ? { autopay: false } : {}) },
  );
}

async function queueNotice(tx: Executor, attempt: AttemptRow, eventId: number): Promise<void> {
  const [customer] = await tx
    .select({ email: customers.email })
    .from(customers)
    .where(and(eq(customers.clientId, attempt.clientId), eq(customers.id, attempt.customerId)));
  const recipient = (customer?.email || attempt.payerEmail || "").trim();
  if (!recipient) return;
  await tx
    .update(gatewayEvents)
    .set({ noticeStatus: "queued", noticeRecipient: recipient.slice(0, 254), noticeUpdatedAt: new Date() })
    .where(and(eq(gatewayEvents.clientId, attempt.clientId), eq(gatewayEvents.id, eventId)));
}

/** A return or chargeback: the payment reversed, the method and autopay dealt with, the fee, the email. */
async function applyReturn(
  tx: Executor,
  event: GatewayEventInput,
  attempt: AttemptRow,
  eventId: number,
): Promise<Pick<AppliedGatewayEvent, "transactionId" | "feeTransactionId" | "represent">> {
  const text = eventText(event);
  const by = {
    eventId,
    gatewayTransId: event.gatewayTransId,
    createdByUserId: event.createdByUserId ?? null,
  };
  const transactionId = await postPaymentReversal(tx, attempt, text, by);
  await recordSettlement(tx, attempt, event.kind === "returned" ? "returned" : "charged_back");
  let feeTransactionId: number | null = null;
  let represent = false;
  if (event.kind === "returned") {
    const doNotDebit = marksDoNotDebit(event.code);
    if (doNotDebit) await markDoNotDebit(tx, attempt, doNotDebitReason(text));
    await setCustomerStatus(tx, attempt, text, doNotDebit);
    const [client] = await tx
      .select({ represent: clients.representAchReturns, fee: clients.achReturnFee })
      .from(clients)
      .where(eq(clients.id, attempt.clientId));
    const originalId = originalAttemptIdOf(attempt);
    const history = await historyOfEntry(tx, attempt.clientId, originalId);
    const fee = client?.fee ?? "0";
    if (returnFeeDue({ code: event.code, fee, feeAlreadyCharged: history.feeCharged }))
      feeTransactionId = await postReturnFee(tx, attempt, fee, `ACH return fee ${event.code.trim()}`, by);
    const original =
      originalId === attempt.id ? attempt : await lockedAttempt(tx, attempt.clientId, originalId);
    represent =
      transactionId !== null &&
      original !== null &&
      mayRepresent({
        code: event.code,
        clientAllows: client?.represent ?? false,
        representedSoFar: history.represented,
        originalDate: original.settledOn ?? original.createdAt.toISOString().slice(0, 10),
        today: businessToday(),
      });
    if (represent && original)
      // Keyed by the return: however often this return is reported, it is presented again once.
      await tx
        .insert(gatewayEvents)
        .values({
          clientId: attempt.clientId,
          kind: "re_presented",
          gatewayTransId: event.gatewayTransId,
          originalTransId: original.gatewayTransId,
          customerId: attempt.customerId,
          code: event.code.slice(0, 8),
          reason: "Presented again after an insufficient-funds return",
          amount: attempt.amount,
          eventDate: businessToday(),
          source: event.source,
        })
        .onConflictDoNothing();
  } else await setCustomerStatus(tx, attempt, text, false);
  await tx
    .update(gatewayEvents)
    .set({ transactionId, feeTransactionId })
    .where(and(eq(gatewayEvents.clientId, attempt.clientId), eq(gatewayEvents.id, eventId)));
  if (transactionId !== null) await queueNotice(tx, attempt, eventId);
  return { transactionId, feeTransactionId, represent };
}

/** A reversed chargeback posts the payment back, once, if the chargeback took it off. */
async function applyChargebackReversal(
  tx: Executor,
  event: GatewayEventInput,
  attempt: AttemptRow,
  eventId: number,
): Promise<number | null> {
  const [chargeback] = await tx
    .select({ transactionId: gatewayEvents.transactionId })
    .from(gatewayEvents)
    .where(
      and(
        eq(gatewayEvents.clientId, attempt.clientId),
        eq(gatewayEvents.attemptId, attempt.id),
        eq(gatewayEvents.kind, "charged_back"),
        sql`${gatewayEvents.transactionId} is not null`,
      ),
    )
    .limit(1);
  const [postedBack] = await tx
    .select({ id: gatewayEvents.id })
    .from(gatewayEvents)
    .where(
      and(
        eq(gatewayEvents.clientId, attempt.clientId),
        eq(gatewayEvents.attemptId, attempt.id),
        eq(gatewayEvents.kind, "chargeback_reversed"),
        sql`${gatewayEvents.transactionId} is not null`,
      ),
    )
    .limit(1);
  if (!chargeback || postedBack) return null;
  const by = {
    eventId,
    gatewayTransId: event.gatewayTransId,
    createdByUserId: event.createdByUserId ?? null,
  };
  const transactionId = await postPaymentBack(tx, attempt, eventText(event), by);
  await recordSettlement(tx, attempt, "settled");
  await tx
    .update(gatewayEvents)
    .set({ transactionId })
    .where(and(eq(gatewayEvents.clientId, attempt.clientId), eq(gatewayEvents.id, eventId)));
  await setCustomerStatus(tx, attempt, eventText(event), false);
  return transactionId;
}

/** Records one gateway event and does what it means for the books, once. */
export async function applyGatewayEvent(
  db: Database,
  event: GatewayEventInput,
  options: ApplyGatewayEventOptions = {},
): Promise<AppliedGatewayEvent> {
  const applied = await moneyTransaction(db, async (tx): Promise<AppliedGatewayEvent> => {
    const [peek] = await tx
      .select({ id: paymentAttempts.id, customerId: paymentAttempts.customerId })
      .from(paymentAttempts)
      .where(
        and(
          eq(paymentAttempts.clientId, event.clientId),
          eq(paymentAttempts.gatewayTransId, event.originalTransId),
          eq(paymentAttempts.kind, "sale"),
          eq(paymentAttempts.status, "approved"),
        ),
      )
      .limit(1);
    // Customers first, then the attempt: the order every money path takes.
    if (peek) await lockCustomers(tx, event.clientId, [peek.customerId]);
    const attempt = peek ? await lockedAttempt(tx, event.clientId, peek.id) : null;
    const [inserted] = await tx
      .insert(gatewayEvents)
      .values({
        clientId: event.clientId,
        kind: event.kind,
        gatewayTransId: event.gatewayTransId,
        originalTransId: event.originalTransId,
        attemptId: attempt?.id ?? null,
        customerId: attempt?.customerId ?? null,
        code: event.code.slice(0, 8),
        reason: event.reason,
        // A person's entry names no amount: the sale's.
        amount: attempt && Number(event.amount) === 0 ? attempt.amount : event.amount,
        eventDate: event.date,
        source: event.source,
        correctedData: maskCorrectedData(event.correctedData ?? ""),
        createdByUserId: event.createdByUserId ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) return { applied: false, eventId: null, attemptId: attempt?.id ?? null };
    await recordChange(tx, {
      clientId: event.clientId,
      action: "gateway_event.record",
      recordKind: "gateway_event",
      recordId: inserted.id,
      customerId: inserted.customerId,
      before: null,
      after: {
        kind: inserted.kind,
        source: inserted.source,
        gateway_trans_id: inserted.gatewayTransId,
        original_trans_id: inserted.originalTransId,
        attempt_id: inserted.attemptId,
        code: inserted.code,
        reason: inserted.reason,
        amount: inserted.amount,
        event_date: inserted.eventDate,
        corrected_data: inserted.correctedData,
      },
    });
    const done = { applied: attempt !== null, eventId: inserted.id, attemptId: attempt?.id ?? null };
    if (!attempt) return done;
    switch (event.kind) {
      case "settled":
        // A late settlement report never undoes a return or chargeback already known.
        await recordSettlement(tx, { clientId: event.clientId, id: attempt.id }, "settled", event.date);
        return done;
      case "returned":
      case "charged_back":
        return { ...done, ...(await applyReturn(tx, event, attempt, inserted.id)) };
      case "chargeback_reversed":
        return { ...done, transactionId: await applyChargebackReversal(tx, event, attempt, inserted.id) };
      case "noc":
        // We never hold the account number (the gateway keeps it behind its token), so the
        // correction cannot be made here: the method waits for the customer's new details.
        await markDoNotDebit(tx, attempt, doNotDebitReason(nocText(event.code)));
        await setCustomerStatus(tx, attempt, nocText(event.code), false);
        return done;
    }
  });
  if (applied.represent && options.gateway) await sendDueRepresentments(db, options.gateway, event.clientId);
  return applied;
}
