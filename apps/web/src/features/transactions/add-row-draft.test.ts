import { describe, expect, it } from "vitest";
import {
  draftAmount,
  keepLocked,
  nextDraft,
  shownServiceDate,
  tidyDecimal,
  type Draft,
  type Lockable,
} from "./add-row-draft";

// A fresh row as emptyDraft makes it (its date is the business day, read from the page).
const FRESH: Draft = {
  customer: null,
  code: null,
  description: "",
  serviceDate: "2026-11-26",
  unitofmeasure: "1",
  quantity: "1",
  rate: "",
};

describe("the add row's draft", () => {
  it("tidies the API's 5-place decimals", () => {
    expect(tidyDecimal("35.50000")).toBe("35.50");
    expect(tidyDecimal("2.00000")).toBe("2");
    expect(tidyDecimal("7.49900")).toBe("7.499");
    expect(tidyDecimal("-1.25000")).toBe("-1.25");
    expect(tidyDecimal("n/a")).toBe("n/a");
  });

  it("prices rate × quantity to the cent, or nothing while either is not a number", () => {
    expect(draftAmount("35.5", "2")).toBe("71.00");
    expect(draftAmount(" 0.1 ", "3")).toBe("0.30");
    expect(draftAmount("", "1")).toBeNull();
    expect(draftAmount("5", "x")).toBeNull();
  });

  it("Save & New keeps the locked columns, and a locked amount keeps rate and quantity", () => {
    const current: Draft = {
      ...FRESH,
      customer: { id: 1, label: "1001 · Alice Arbor" },
      description: "Front lawn",
      serviceDate: "2026-03-02",
      rate: "40",
      quantity: "2",
    };
    const fresh = FRESH;
    const locked = (columns: Lockable[]) => (column: Lockable) => columns.includes(column);
    expect(keepLocked(current, fresh, locked([]))).toEqual(fresh);
    expect(keepLocked(current, fresh, locked(["serviceDate", "description"]))).toEqual({
      ...fresh,
      serviceDate: "2026-03-02",
      description: "Front lawn",
    });
    expect(keepLocked(current, fresh, locked(["amount"]))).toEqual({ ...fresh, rate: "40", quantity: "2" });
  });

  it("Save & New keeps the customer even unlocked, and the date follows the server's again", () => {
    const current: Draft = {
      ...FRESH,
      customer: { id: 1, label: "1001 · Alice Arbor" },
      description: "Front lawn",
      serviceDate: "2026-03-02",
      rate: "40",
    };
    const nothingLocked = () => false;
    expect(nextDraft(current, nothingLocked)).toEqual({
      customer: { id: 1, label: "1001 · Alice Arbor" },
      code: null,
      description: "",
      serviceDate: "",
      unitofmeasure: "1",
      quantity: "1",
      rate: "",
    });
  });

  it("shows the clerk's date, else the server's posting date, else today while that loads", () => {
    const row = { ...FRESH, serviceDate: "" };
    expect(shownServiceDate(row, "2026-11-27", "2026-11-26")).toBe("2026-11-27");
    expect(shownServiceDate(row, undefined, "2026-11-26")).toBe("2026-11-26");
    expect(shownServiceDate({ ...row, serviceDate: "2026-12-01" }, "2026-11-27", "2026-11-26")).toBe(
      "2026-12-01",
    );
  });
});
