import type { PaymentPayload, PaymentResult } from "@cyclebill/domain";
import { useRef, useState } from "react";
import { ApiError } from "../../api/api-client";
import { makePayment } from "./payments-api";
import { PAYMENT_SUBMIT_DEBOUNCE_MS, newIdempotencyKey } from "./payment-form";

export type SubmitOutcome =
  | { kind: "answered"; result: PaymentResult }
  | { kind: "rejected"; error: ApiError }
  | { kind: "unknown"; error: unknown };

/**
 * The payment submit: one Idempotency-Key per submit, and the spec's 5 s debounce (a second click
 * within 5 s of the first, or while one is in flight, does nothing). When a submit got no answer
 * (network failure, 5xx, or 409 still pending) and the payload is unchanged, the next submit reuses
 * its key, so the server answers the first attempt instead of charging again.
 */
export function usePaymentSubmit() {
  const [pending, setPending] = useState(false);
  const lastSubmitAt = useRef(0);
  const inFlight = useRef(false);
  const unanswered = useRef<{ key: string; payload: string } | null>(null);

  const submit = async (payload: PaymentPayload): Promise<SubmitOutcome | null> => {
    const now = Date.now();
    if (inFlight.current || now - lastSubmitAt.current < PAYMENT_SUBMIT_DEBOUNCE_MS) return null;
    lastSubmitAt.current = now;
    inFlight.current = true;
    setPending(true);
    const serialised = JSON.stringify(payload);
    const key =
      unanswered.current && unanswered.current.payload === serialised
        ? unanswered.current.key
        : newIdempotencyKey();
    try {
      const result = await makePayment(payload, key);
      unanswered.current = null;
      return { kind: "answered", result };
    } catch (error) {
      const settled = error instanceof ApiError && error.status < 500 && error.status !== 409;
      unanswered.current = settled ? null : { key, payload: serialised };
      return error instanceof ApiError ? { kind: "rejected", error } : { kind: "unknown", error };
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  };

  return { submit, pending };
}
