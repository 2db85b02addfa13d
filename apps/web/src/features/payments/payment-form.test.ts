import {
  ACCOUNT_NUMBER_MESSAGE,
  CARD_EXPIRED_MESSAGE,
  CARD_NUMBER_MESSAGE,
  CVV_MESSAGE,
  EXP_MONTH_MESSAGE,
  PAYMENT_AMOUNT_MESSAGE,
  PAYMENT_AMOUNT_TOO_LARGE_MESSAGE,
  ROUTING_MESSAGE,
  SAVED_METHOD_TO_STORE_MESSAGE,
  type PaymentResult,
} from "@cyclebill/domain";
import { describe, expect, test } from "vitest";
import {
  initialPaymentValues,
  newIdempotencyKey,
  noCardPaymentsText,
  paymentApproved,
  paymentPayloadInput,
  serverPaymentErrors,
  storedMethodLabel,
  storesMethod,
  validatePayment,
  type FormInfo,
  type PaymentFormValues,
  type PaymentTarget,
} from "./payment-form";

const INFO: FormInfo = {
  hasStoredPaymentInfo: false,
  amount: "125.50",
  accountbalance: "125.50",
  address1: "12 Elm St",
  address2: "Apt 4",
  city: "Springfield",
  state: "IL",
  zip: "12345",
  company: "",
  customer_no: 1042,
  names: "Ann Lee",
  first_name: "Ann",
  last_name: "Lee",
  client_name: "Greenway",
  takes_card_payments: true,
  statement: null,
  stored_method: null,
  autopay_flag: true,
};
const STAFF_INFO: FormInfo = { ...INFO, email: "ann@example.test" };

const STATEMENT: PaymentTarget = { kind: "statement", statementId: "7-ABC123" };
const LINK: PaymentTarget = { kind: "link", paymentLink: "link-token" };
const CHARGE: PaymentTarget = { kind: "customer", clientId: 7, customerId: 42, recordPayment: false };
const STORE: PaymentTarget = { kind: "customer", clientId: 7, customerId: 42, recordPayment: true };

// A Luhn-valid test card and an ABA-valid routing number.
const CARD = "4111 1111 1111 1111";
const ROUTING = "011000015";
const TODAY = "2026-11-26";

function card(values: Partial<PaymentFormValues> = {}): PaymentFormValues {
  return {
    ...initialPaymentValues(STAFF_INFO, false),
    ccNum: CARD,
    cvv: "123",
    expMonth: "12",
    expYear: "29",
    ...values,
  };
}

describe("payment form: what it starts with", () => {
  test("the public page's form starts with the whole address: city and state too (issue 41.7)", () => {
    const values = initialPaymentValues(INFO, false);
    expect(values).toMatchObject({
      billingAddress1: "12 Elm St",
      billingAddress2: "Apt 4",
      city: "Springfield",
      state: "IL",
      postalCode: "12345",
      email: "",
    });
  });

  test("a client without a gateway key is told plainly, by name", () => {
    expect(noCardPaymentsText("Greenway")).toEqual({
      title: "Greenway does not take card payments online",
      message:
        "There is nothing to pay on this page: please pay Greenway another way, as your statement says.",
    });
  });

  test("a payment starts on a card, at the proposed amount, with the customer's name and address", () => {
    const values = initialPaymentValues(STAFF_INFO, false);
    expect(values).toMatchObject({
      paymentMethod: "cc",
      amount: "125.50",
      firstName: "Ann",
      lastName: "Lee",
      billingAddress1: "12 Elm St",
      billingAddress2: "Apt 4",
      city: "Springfield",
      state: "IL",
      postalCode: "12345",
      email: "ann@example.test",
      savePaymentInfo: false,
      autoPay: false,
      checkAccountType: "C",
    });
  });

  test("a credit balance or zero proposes no amount", () => {
    expect(initialPaymentValues({ ...INFO, amount: "-20.00" }, false).amount).toBe("");
    expect(initialPaymentValues({ ...INFO, amount: "0.00" }, false).amount).toBe("");
    expect(initialPaymentValues({ ...INFO, amount: "0" }, false).amount).toBe("");
    expect(initialPaymentValues({ ...INFO, amount: "0.01" }, false).amount).toBe("0.01");
  });

  test("with a stored method a payment starts on it and keeps it saved", () => {
    const values = initialPaymentValues({ ...INFO, hasStoredPaymentInfo: true }, false);
    expect([values.paymentMethod, values.savePaymentInfo]).toEqual(["useSaved", true]);
  });

  test("storing a method starts at 0.00 on a card, saved, with the customer's autopay", () => {
    const values = initialPaymentValues({ ...INFO, hasStoredPaymentInfo: true }, true);
    expect(values).toMatchObject({
      paymentMethod: "cc",
      amount: "0.00",
      savePaymentInfo: true,
      autoPay: true,
    });
    expect(initialPaymentValues({ ...INFO, autopay_flag: false }, true).autoPay).toBe(false);
  });

  test("a staff-issued link or staff's record payment stores a method; the rest pay", () => {
    expect(storesMethod(LINK)).toBe(true);
    expect(storesMethod(STORE)).toBe(true);
    expect(storesMethod(CHARGE)).toBe(false);
    expect(storesMethod(STATEMENT)).toBe(false);
  });
});

describe("payment form: what it sends", () => {
  test("staff's card payment: the customer, the card only, the amount without $ or commas", () => {
    const sent = paymentPayloadInput(
      card({ amount: " $1,250.00 ", checkRoutingNum: ROUTING, checkAccountNum: "123456" }),
      CHARGE,
      STAFF_INFO,
    );
    expect(sent).toMatchObject({
      paymentMethod: "cc",
      amount: "1250.00",
      ccNum: CARD,
      cvv: "123",
      expMonth: "12",
      expYear: "29",
      client_id: 7,
      customer_id: 42,
      customer_no: 1042,
      country: "US",
      recordPayment: false,
      savePaymentInfo: false,
      autoPay: false,
      isClientInitiated: true,
    });
    // A bank account typed and then abandoned for a card does not go out.
    expect(sent).not.toHaveProperty("checkRoutingNum");
    expect(sent).not.toHaveProperty("checkAccountNum");
  });

  test("a bank payment sends the account, not the card typed before", () => {
    const sent = paymentPayloadInput(
      card({
        paymentMethod: "check",
        checkRoutingNum: ROUTING,
        checkAccountNum: "123456",
        checkAccountType: "S",
      }),
      CHARGE,
      STAFF_INFO,
    );
    expect(sent).toMatchObject({
      checkRoutingNum: ROUTING,
      checkAccountNum: "123456",
      checkAccountType: "S",
    });
    expect(sent).not.toHaveProperty("ccNum");
    expect(sent).not.toHaveProperty("cvv");
  });

  test("a saved method sends no account fields", () => {
    const sent = paymentPayloadInput(card({ paymentMethod: "useSaved" }), CHARGE, STAFF_INFO);
    expect(sent).not.toHaveProperty("ccNum");
    expect(sent).not.toHaveProperty("checkAccountNum");
  });

  test("autopay goes out only with the method saved; storing always saves", () => {
    expect(paymentPayloadInput(card({ autoPay: true }), CHARGE, STAFF_INFO).autoPay).toBe(false);
    const saved = paymentPayloadInput(card({ autoPay: true, savePaymentInfo: true }), CHARGE, STAFF_INFO);
    expect([saved.savePaymentInfo, saved.autoPay]).toEqual([true, true]);
    const stored = paymentPayloadInput(card({ autoPay: true, savePaymentInfo: false }), STORE, STAFF_INFO);
    expect([stored.recordPayment, stored.savePaymentInfo, stored.autoPay]).toEqual([true, true, true]);
  });

  test("an empty amount goes out as 0.00", () => {
    expect(paymentPayloadInput(card({ amount: "  " }), CHARGE, STAFF_INFO).amount).toBe("0.00");
  });

  test("the public page sends the statement's pay token and never stores a method", () => {
    const sent = paymentPayloadInput(card({ amount: "40.00" }), STATEMENT, INFO);
    expect(sent).toMatchObject({
      statementId: "7-ABC123",
      recordPayment: false,
      amount: "40.00",
      customer_no: 1042,
    });
    expect(sent).not.toHaveProperty("client_id");
    expect(sent).not.toHaveProperty("savePaymentInfo");
  });

  test("the public page's saved method pays the statement's amount due, whatever was typed", () => {
    const sent = paymentPayloadInput(card({ paymentMethod: "useSaved", amount: "5.00" }), STATEMENT, INFO);
    expect(sent.amount).toBe("125.50");
  });

  test("a staff-issued link stores the method for 0.00 with the chosen autopay, without a customer number", () => {
    const sent = paymentPayloadInput(card({ amount: "99.00", autoPay: true }), LINK, INFO);
    expect(sent).toMatchObject({
      paymentLink: "link-token",
      amount: "0.00",
      recordPayment: true,
      savePaymentInfo: true,
      autoPay: true,
    });
    expect(sent).not.toHaveProperty("customer_no");
  });
});

describe("payment form: validation", () => {
  test("a complete card payment passes, the card number's spaces dropped", () => {
    const result = validatePayment(card(), CHARGE, STAFF_INFO, TODAY);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.payload.ccNum).toBe("4111111111111111");
      expect(result.payload.amount).toBe("125.50");
      expect(result.payload.customer_id).toBe(42);
    }
  });

  test("every card field's problem at once, under its field", () => {
    const result = validatePayment(
      card({ ccNum: "4111 1111 1111 1112", cvv: "12", expMonth: "13", amount: "0.00" }),
      CHARGE,
      STAFF_INFO,
      TODAY,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        ccNum: CARD_NUMBER_MESSAGE,
        cvv: CVV_MESSAGE,
        expMonth: EXP_MONTH_MESSAGE,
        amount: PAYMENT_AMOUNT_MESSAGE,
      },
    });
  });

  test("a card past its expiry month is refused against the business date; its last month still works", () => {
    expect(validatePayment(card({ expMonth: "10", expYear: "26" }), CHARGE, STAFF_INFO, TODAY)).toEqual({
      ok: false,
      errors: { expYear: CARD_EXPIRED_MESSAGE },
    });
    expect(validatePayment(card({ expMonth: "11", expYear: "26" }), CHARGE, STAFF_INFO, TODAY).ok).toBe(true);
    expect(
      validatePayment(card({ expMonth: "10", expYear: "26" }), CHARGE, STAFF_INFO, "2026-10-31").ok,
    ).toBe(true);
  });

  test("a bank payment checks the routing number's check digit and the account's length", () => {
    const result = validatePayment(
      card({ paymentMethod: "check", checkRoutingNum: "011000016", checkAccountNum: "123" }),
      CHARGE,
      STAFF_INFO,
      TODAY,
    );
    expect(result).toEqual({
      ok: false,
      errors: { checkRoutingNum: ROUTING_MESSAGE, checkAccountNum: ACCOUNT_NUMBER_MESSAGE },
    });
    const good = card({ paymentMethod: "check", checkRoutingNum: ROUTING, checkAccountNum: "123456789" });
    expect(validatePayment(good, CHARGE, STAFF_INFO, TODAY).ok).toBe(true);
  });

  test("amounts over 100,000.00 are refused; storing a method takes 0.00 but not a saved method", () => {
    expect(validatePayment(card({ amount: "100000.01" }), CHARGE, STAFF_INFO, TODAY)).toEqual({
      ok: false,
      errors: { amount: PAYMENT_AMOUNT_TOO_LARGE_MESSAGE },
    });
    expect(validatePayment(card({ amount: "0.00" }), STORE, STAFF_INFO, TODAY).ok).toBe(true);
    expect(validatePayment(card({ paymentMethod: "useSaved" }), STORE, STAFF_INFO, TODAY)).toEqual({
      ok: false,
      errors: { paymentMethod: SAVED_METHOD_TO_STORE_MESSAGE },
    });
  });
});

describe("payment form: the server's answers", () => {
  test("a 400's field errors land on the form's fields; the rest become messages", () => {
    expect(
      serverPaymentErrors({
        ccNum: ["Enter a valid card number."],
        amount: "Too much.",
        detail: "Declined",
        non_field_errors: ["One.", "Two."],
        customer_id: ["Unknown customer."],
        ignored: [],
      }),
    ).toEqual({
      fields: { ccNum: "Enter a valid card number.", amount: "Too much." },
      messages: ["Declined", "One. Two.", "customer_id: Unknown customer."],
    });
    expect(serverPaymentErrors("Bad Request")).toEqual({ fields: {}, messages: [] });
    expect(serverPaymentErrors(null)).toEqual({ fields: {}, messages: [] });
  });

  test("approved when the message says approved or auth/tkt, in any case", () => {
    const result = (message: string): PaymentResult => ({
      name1: "Ann",
      name2: "Lee",
      amount_response: "10.00",
      message_response: message,
      approved: false,
      status: "approved",
      account_balance: "0.00",
    });
    expect(paymentApproved(result("Approved Sale"))).toBe(true);
    expect(paymentApproved(result("AUTH/TKT 0123"))).toBe(true);
    expect(paymentApproved(result("Declined"))).toBe(false);
  });

  test("a stored method is named by kind, last four digits and expiry", () => {
    const method = { kind: "card" as const, card_type: "VISA", mask: "xxxx-xxxx-xxxx-1111", expiry: "1229" };
    const stored = { ...method, stored_at: "2026-01-01T00:00:00Z" };
    expect(storedMethodLabel(stored)).toBe("VISA ending 1111, expires 12/29");
    expect(storedMethodLabel({ ...stored, card_type: "", expiry: "" })).toBe("Card ending 1111");
    expect(storedMethodLabel({ ...stored, kind: "ach", mask: "xxxxx6789" })).toBe("Bank account ending 6789");
    expect(storedMethodLabel(null)).toBe("Saved payment method");
  });

  test("idempotency keys are fresh each time", () => {
    const keys = new Set(Array.from({ length: 20 }, () => newIdempotencyKey()));
    expect(keys.size).toBe(20);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f-]{32,36}$/);
  });
});
