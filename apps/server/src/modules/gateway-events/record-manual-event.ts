import type { GatewayEventInputApi } from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import type { Database } from "../../db/database.js";
import type { PaymentGateway } from "../payments/payment-gateway.js";
import { applyGatewayEvent } from "./apply-gateway-event.js";

/** A person's entry of what BluePay's console shows, through the same door as the reports. */
export async function recordManualEvent(
  db: Database,
  gateway: PaymentGateway,
  clientId: number,
  userId: number,
  input: GatewayEventInputApi,
) {
  const applied = await applyGatewayEvent(
    db,
    {
      clientId,
      kind: input.kind,
      gatewayTransId: input.gateway_trans_id,
      originalTransId: input.original_trans_id,
      code: input.code,
      reason: input.reason,
      amount: "0",
      date: input.event_date ?? businessToday(),
      source: "manual",
      correctedData: input.corrected_data,
      createdByUserId: userId,
    },
    { gateway },
  );
  return {
    applied: applied.applied,
    event_id: applied.eventId,
    attempt_id: applied.attemptId,
    transaction_id: applied.transactionId ?? null,
    fee_transaction_id: applied.feeTransactionId ?? null,
  };
}
