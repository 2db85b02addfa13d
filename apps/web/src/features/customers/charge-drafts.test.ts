import { describe, expect, it } from "vitest";
import {
  displayQuantity,
  draftErrorsFromBody,
  emptyRecurringDraft,
  emptyStoredDraft,
  liveAmount,
  recurringDraftOf,
  storedDraftOf,
  trimRate,
  validateRecurringDraft,
  validateStoredDraft,
  type RecurringDraft,
  type StoredDraft,
} from "./charge-drafts";
import type { CodeOption, RecurringCharge, StoredAmount } from "./customer-children-api";

const MOWING = { id: 7, code: 101, description: "Lawn mowing" };
const lookup = new Map([[7, MOWING as CodeOption]]);

describe("rates and quantities as the forms show them", () => {
  it("trims the API's 5 decimals of a rate to at least 2", () => {
    expect(trimRate("12.50000")).toBe("12.50");
    expect(trimRate("7.49900")).toBe("7.499");
    expect(trimRate("3.00000")).toBe("3.00");
    expect(trimRate("abc")).toBe("abc");
  });

  it("shows quantities as typed", () => {
    expect(displayQuantity("3.00000")).toBe("3");
    expect(displayQuantity("1.50000")).toBe("1.5");
    expect(displayQuantity("x")).toBe("x");
  });

  it("computes the live amount exactly, and a dash until both parts are numbers", () => {
    expect(liveAmount("12.50", "3")).toBe("$37.50");
    expect(liveAmount("0.1", "3")).toBe("$0.30");
    expect(liveAmount(" 7.499 ", "1")).toBe("$7.50");
    expect(liveAmount("", "1")).toBe("—");
    expect(liveAmount("-5", "1")).toBe("—");
    expect(liveAmount("5", "-1")).toBe("—");
  });
});

describe("drafts from saved rows", () => {
  it("reads a stored amount with its code from the lookup", () => {
    const row = {
      storedCode: 7,
      description: "Front lawn",
      rate: "35.50000",
      quantity: "2.00000",
      unitofmeasure: null,
    } as unknown as StoredAmount;
    expect(storedDraftOf(row, lookup)).toEqual({
      code: MOWING,
      description: "Front lawn",
      rate: "35.50",
      quantity: "2",
      unitofmeasure: "1",
    });
  });

  it("reads a recurring charge; an unknown code keeps its id", () => {
    const row = {
      auto_code: 99,
      description: "Monthly service",
      rate: "40.00000",
      quantity: 1,
      start_month: 3,
      end_month: 10,
      frequency: "monthly",
      arrears: true,
      unitofmeasure: 2,
    } as unknown as RecurringCharge;
    expect(recurringDraftOf(row, lookup)).toEqual({
      code: { id: 99, code: 99, description: "" },
      description: "Monthly service",
      rate: "40.00",
      quantity: "1",
      start_month: "3",
      end_month: "10",
      start_date: "",
      frequency: "monthly",
      arrears: true,
      unitofmeasure: "2",
    });
  });
});

describe("stored amount checks", () => {
  const draft = (patch: Partial<StoredDraft>): StoredDraft => ({ ...emptyStoredDraft(), ...patch });

  it("needs a code and a rate", () => {
    const result = validateStoredDraft(emptyStoredDraft());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.code).toBe("Stored amounts must have a code and a rate.");
    expect(result.errors.rate).toBe("Stored amounts must have a code and a rate.");
  });

  it("refuses a description over 60 characters and a rate with other characters", () => {
    const result = validateStoredDraft(draft({ code: MOWING, description: "x".repeat(61), rate: "$5" }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual(["description", "rate"]);
  });

  it("gives the API's values (rate to 5 places) for a good draft, quantity 1 when left empty", () => {
    const result = validateStoredDraft(
      draft({ code: MOWING, description: "Front", rate: " 35.5 ", quantity: "" }),
    );
    expect(result).toEqual({
      ok: true,
      data: { storedCode: 7, description: "Front", rate: "35.50000", quantity: "1", unitofmeasure: 1 },
    });
  });
});

describe("recurring charge checks", () => {
  const draft = (patch: Partial<RecurringDraft>): RecurringDraft => ({ ...emptyRecurringDraft(), ...patch });

  it("needs a code and a rate", () => {
    const result = validateRecurringDraft(emptyRecurringDraft());
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.code).toBe("Recurring charges must have a code, rate, start month, and end month.");
    expect(result.errors.rate).toBe("Recurring charges must have a code, rate, start month, and end month.");
  });

  it("gives the API's values for a good draft", () => {
    const result = validateRecurringDraft(
      draft({ code: MOWING, rate: "40", quantity: "2", start_month: "3", end_month: "10", arrears: true }),
    );
    expect(result).toEqual({
      ok: true,
      data: {
        auto_code: 7,
        description: "",
        rate: "40.00000",
        quantity: 2,
        start_month: 3,
        end_month: 10,
        start_date: null,
        frequency: "monthly",
        arrears: true,
        unitofmeasure: 1,
      },
    });
  });

  it("sends a start date the user gives, and none for a blank one", () => {
    const dated = validateRecurringDraft(draft({ code: MOWING, rate: "40", start_date: " 2026-03-01 " }));
    expect(dated.ok && dated.data.start_date).toBe("2026-03-01");
  });
});

describe("server errors mapped to the form's fields", () => {
  it("puts a field's first message on the field (renamed), and the rest aside", () => {
    const body = {
      auto_code: ["This field is required."],
      rate: "A valid number is required.",
      non_field_errors: ["Recurring charges must have a code, rate, start month, and end month."],
    };
    expect(draftErrorsFromBody(body, ["code", "rate"] as const, { auto_code: "code" })).toEqual({
      errors: { code: "This field is required.", rate: "A valid number is required." },
      others: ["Recurring charges must have a code, rate, start month, and end month."],
    });
    expect(draftErrorsFromBody("Server error", ["code"] as const, {})).toEqual({ errors: {}, others: [] });
  });
});
