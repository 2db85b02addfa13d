import { describe, expect, it } from "vitest";
import {
  ONE_CUSTOMER_MESSAGE,
  makeInvoiceRefusal,
  type InvoiceStatus,
  PROCESSED_INVOICE_DELETE_MESSAGE,
  PROCESSED_INVOICE_REOPEN_MESSAGE,
  displayInvoiceNum,
  invoiceActionRefusal,
  invoiceFileName,
  type InvoiceAction,
} from "./invoice-rules.js";
import { bulkAddInvoicesSchema, invoiceCreateSchema } from "./invoice-schemas.js";

describe("invoice state machine", () => {
  const allowed = (status: InvoiceStatus) =>
    (["edit", "attach", "separate", "close", "reopen", "delete"] as InvoiceAction[]).filter(
      (action) => invoiceActionRefusal(status, action) === undefined,
    );

  it("lets an open invoice be edited, filled, separated, closed and deleted", () => {
    expect(allowed("open")).toEqual(["edit", "attach", "separate", "close", "delete"]);
  });

  it("lets a closed invoice only be reopened or deleted", () => {
    expect(allowed("closed")).toEqual(["reopen", "delete"]);
  });

  it("keeps a processed invoice as it was sent", () => {
    expect(allowed("processed")).toEqual([]);
    expect(invoiceActionRefusal("processed", "delete")).toBe(PROCESSED_INVOICE_DELETE_MESSAGE);
    expect(invoiceActionRefusal("processed", "reopen")).toBe(PROCESSED_INVOICE_REOPEN_MESSAGE);
  });
});

describe("invoice numbers and file names", () => {
  it("shows 0 as 1 and names the statement once there is one", () => {
    expect(displayInvoiceNum(0)).toBe(1);
    expect(displayInvoiceNum(1007)).toBe(1007);
    expect(invoiceFileName(1007, null)).toBe("Invoice 1007.pdf");
    expect(invoiceFileName(1007, 12)).toBe("Invoice 1007 Statement 12.pdf");
  });
});

describe("invoice schemas", () => {
  it("reads ids given as numbers or numeric strings", () => {
    expect(invoiceCreateSchema.parse({ customer: "7" })).toEqual({ customer: 7 });
    expect(bulkAddInvoicesSchema.safeParse({ customer_ids: [1, "x"] }).success).toBe(false);
  });
});

describe("makeInvoiceRefusal", () => {
  const entry = { customer: 1, invoice: null, invoice_num: null, voided: false };
  it("allows entries of one customer on no invoice", () => {
    expect(makeInvoiceRefusal([entry, { ...entry }])).toBeNull();
  });
  it("names the invoice an entry is already on, and refuses voided entries and two customers", () => {
    expect(makeInvoiceRefusal([entry, { ...entry, invoice: 7, invoice_num: 12 }])).toBe(
      "1 of the selected transactions is already on invoice 12; unselect it to make an invoice.",
    );
    expect(makeInvoiceRefusal([{ ...entry, voided: true }])).toMatch(/is voided/);
    expect(makeInvoiceRefusal([entry, { ...entry, customer: 2 }])).toBe(ONE_CUSTOMER_MESSAGE);
    expect(makeInvoiceRefusal([])).toMatch(/Select/);
  });
});
