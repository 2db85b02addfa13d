import {
  ADDRESS_INVALID_MESSAGE,
  ADDRESS_LINE_REQUIRED_MESSAGE,
  EMAIL_REQUIRED_MESSAGE,
  NAME_REQUIRED_MESSAGE,
  NAME_REQUIRED_ON_UPDATE_MESSAGE,
  type CustomerRecord,
} from "@cyclebill/domain";
import { describe, expect, test } from "vitest";
import {
  displayPhone,
  emptyCustomerValues,
  keepStoredNoPhone,
  serverErrors,
  validateCustomer,
  valuesFromRecord,
  type CustomerFormValues,
} from "./customer-form";

/** A customer that passes every rule: a name and a complete mailing address, billed by mail. */
function complete(values: Partial<CustomerFormValues> = {}): CustomerFormValues {
  return {
    ...emptyCustomerValues(),
    first_name: "Ann",
    last_name: "Lee",
    address1: "12 Elm St",
    city: "Springfield",
    state: "IL",
    zip: "62701",
    ...values,
  };
}

const RECORD: CustomerRecord = {
  id: 9,
  client: 3,
  client_id: 3,
  customer_no: 1042,
  customer_name: "Ann Lee",
  first_name: "Ann",
  last_name: "Lee",
  company_name: "",
  phone1: "(555)-123-4567",
  phone2: "0000000000",
  phone3: "",
  email: "ann@example.test",
  address1: "12 Elm St",
  address2: "",
  address3: "",
  city: "Springfield",
  state: "IL",
  zip: "62701",
  property_address1: "",
  property_address2: "",
  property_address3: "",
  property_city: "",
  property_state: "",
  property_zip: "",
  pull_flag: "E",
  pull_explanation: "",
  bi_pull_flag: "",
  finance_flag: "2",
  autopay_flag: true,
  tax_status: "F",
  message: "Thanks",
  message_duration: 3,
  message_internal: "Gate code 1234",
  message_field: "",
  bluepay_transaction_id: "",
  bluepay_transaction_message: "",
  delete_flag: null,
  deleted: false,
  archive_state: "active",
  actions: ["mark_for_archive"],
  open_date: "2025-03-01",
  last_pay_date: null,
  total_balance: "10.00",
  balance: "10.00",
  previous_balance: "0.00",
  mtd_charges: "0.00",
  mtd_payments: "0.00",
  mtd_cr_adj: "0.00",
  mtd_db_adj: "0.00",
  overdue_30_days: "0.00",
  overdue_60_days: "0.00",
  overdue_90_days: "0.00",
  overdue_over_90_days: "0.00",
  current_balance: "10.00",
  created_at: "2025-03-01T12:00:00Z",
};

describe("customer form: what it starts with", () => {
  test("a new customer has the spec's defaults: mailed statements, invoices by mail, client's late fees, taxable", () => {
    const values = emptyCustomerValues();
    expect(values).toMatchObject({
      pull_flag: "A",
      pull_explanation: "0",
      bi_pull_flag: "M",
      finance_flag: "C",
      autopay_flag: false,
      tax_status: "T",
      message_duration: "0",
      customer_no: "",
      open_date: "",
    });
  });

  test("the phone 0000000000 shows as empty", () => {
    expect(displayPhone("0000000000")).toBe("");
    expect(displayPhone(null)).toBe("");
    expect(displayPhone(undefined)).toBe("");
    expect(displayPhone("(555)-123-4567")).toBe("(555)-123-4567");
  });

  test("a record opens as text: numbers as strings, no-phone empty, a missing invoice flag derived", () => {
    const values = valuesFromRecord(RECORD);
    expect(values).toMatchObject({
      customer_no: "1042",
      phone1: "(555)-123-4567",
      phone2: "",
      phone3: "",
      pull_flag: "E",
      pull_explanation: "0",
      // Email only: the invoice flag follows as Email.
      bi_pull_flag: "E",
      finance_flag: "2",
      autopay_flag: true,
      tax_status: "F",
      message_duration: "3",
      open_date: "2025-03-01",
    });
    expect(valuesFromRecord({ ...RECORD, pull_flag: "M", bi_pull_flag: "E" }).bi_pull_flag).toBe("E");
  });
});

describe("customer form: saving a no-phone", () => {
  test("a stored 0000000000 left empty is saved as 0000000000; a typed phone or a cleared real one as typed", () => {
    const values = valuesFromRecord(RECORD);
    const result = validateCustomer({ ...values, message: "New message" }, "edit");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(keepStoredNoPhone(result.data, RECORD)).toMatchObject({
      phone1: "(555)-123-4567",
      phone2: "0000000000",
      phone3: "",
      message: "New message",
    });
    const typed = validateCustomer({ ...values, phone1: "", phone2: "(555)-000-1111" }, "edit");
    expect(typed.ok).toBe(true);
    if (!typed.ok) return;
    expect(keepStoredNoPhone(typed.data, RECORD)).toMatchObject({ phone1: "", phone2: "(555)-000-1111" });
  });
});

describe("customer form: validation", () => {
  test("a complete customer passes and goes out trimmed, with the derived invoice flag", () => {
    const result = validateCustomer(complete({ first_name: "  Ann ", state: "il" }), "add");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data).toMatchObject({
      first_name: "Ann",
      last_name: "Lee",
      state: "IL",
      pull_flag: "A",
      bi_pull_flag: "M",
      message_duration: 0,
      autopay_flag: false,
    });
    // Left empty, the number and the open date are the server's to choose.
    expect(result.data.customer_no).toBeUndefined();
    expect(result.data.open_date).toBeUndefined();
  });

  test("a typed number, open date and message duration are sent as the API takes them", () => {
    const result = validateCustomer(
      complete({ customer_no: " 77 ", open_date: "2026-01-15", message_duration: " 6 " }),
      "edit",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect([result.data.customer_no, result.data.open_date, result.data.message_duration]).toEqual([
      77,
      "2026-01-15",
      6,
    ]);
  });

  test("no name: the add form and the editor word the rule as the spec does", () => {
    const blank = complete({ first_name: " ", last_name: "" });
    expect(validateCustomer(blank, "add")).toEqual({
      ok: false,
      fieldErrors: {},
      formErrors: [NAME_REQUIRED_MESSAGE],
    });
    expect(validateCustomer(blank, "edit")).toEqual({
      ok: false,
      fieldErrors: {},
      formErrors: [NAME_REQUIRED_ON_UPDATE_MESSAGE],
    });
    expect(
      validateCustomer(complete({ first_name: "", last_name: "", company_name: "Acme" }), "add").ok,
    ).toBe(true);
  });

  test("an incomplete mailing address marks each missing field and raises the address alert", () => {
    const result = validateCustomer(complete({ address1: "", city: "", state: "", zip: "123" }), "add");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors).toEqual({
      address1: ADDRESS_LINE_REQUIRED_MESSAGE,
      city: "City required",
      state: "State required",
      zip: "Must be 5 digits",
    });
    expect(result.formErrors).toEqual([ADDRESS_INVALID_MESSAGE]);
  });

  test("a bad property address raises the address alert too; an empty one is fine", () => {
    const result = validateCustomer(complete({ property_zip: "9", property_state: "Illinois" }), "add");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.fieldErrors).sort()).toEqual(["property_state", "property_zip"]);
    expect(result.formErrors).toEqual([ADDRESS_INVALID_MESSAGE]);
  });

  test("emailed bills need an email: under the field and in the alert", () => {
    for (const flags of [{ pull_flag: "E" }, { pull_flag: "M" }, { pull_flag: "A", bi_pull_flag: "B" }]) {
      const result = validateCustomer(complete(flags), "add");
      expect(result).toEqual({
        ok: false,
        fieldErrors: { email: EMAIL_REQUIRED_MESSAGE },
        formErrors: [EMAIL_REQUIRED_MESSAGE],
      });
    }
    expect(validateCustomer(complete({ pull_flag: "E", email: "ann@example.test" }), "add").ok).toBe(true);
  });

  test("every problem shows at once: the name, the address, the email and each field's own message", () => {
    const result = validateCustomer(
      {
        ...emptyCustomerValues(),
        pull_flag: "E",
        phone1: "12345",
        message_duration: "500",
      },
      "add",
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.formErrors).toEqual([
      NAME_REQUIRED_MESSAGE,
      ADDRESS_INVALID_MESSAGE,
      EMAIL_REQUIRED_MESSAGE,
    ]);
    expect(result.fieldErrors.phone1).toBe("12345 is not a valid phone number");
    expect(result.fieldErrors.message_duration).toBeDefined();
    expect(result.fieldErrors.email).toBe(EMAIL_REQUIRED_MESSAGE);
    expect(result.fieldErrors.address1).toBe(ADDRESS_LINE_REQUIRED_MESSAGE);
  });

  test("a malformed email is the field's own message, not the missing-email alert", () => {
    const result = validateCustomer(complete({ email: "not-an-email" }), "add");
    expect(result).toEqual({
      ok: false,
      fieldErrors: { email: "Enter a valid email address." },
      formErrors: [],
    });
  });
});

describe("customer form: the server's answers", () => {
  test("known fields get their first message; the rest go to the alert", () => {
    expect(
      serverErrors({
        email: ["Enter a valid email address.", "Second"],
        customer_no: "A customer with this number already exists.",
        non_field_errors: ["Please correct the address fields."],
        detail: { nested: ["Deep message"] },
      }),
    ).toEqual({
      fieldErrors: {
        email: "Enter a valid email address.",
        customer_no: "A customer with this number already exists.",
      },
      formErrors: ["Please correct the address fields.", "Deep message"],
    });
  });

  test("full-create nests the customer's errors under customer; the other parts go to the alert", () => {
    expect(
      serverErrors({
        customer: { zip: ["Must be 5 digits"], non_field_errors: ["Please correct the address fields."] },
        recurring_charges: [{ rate: ["Enter a valid rate."] }],
      }),
    ).toEqual({
      fieldErrors: { zip: "Must be 5 digits" },
      formErrors: ["Please correct the address fields.", "Enter a valid rate."],
    });
  });

  test("a body that is not an object gives nothing", () => {
    expect(serverErrors("Bad Request")).toEqual({ fieldErrors: {}, formErrors: [] });
    expect(serverErrors(null)).toEqual({ fieldErrors: {}, formErrors: [] });
  });
});
