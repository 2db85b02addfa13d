import { describe, expect, it } from "vitest";
import {
  REFUNDED_OFFSET_MESSAGE,
  entryActionRefusal,
  entryActions,
  invoiceActions,
  statementActionRefusal,
  statementActions,
  type EntryActionState,
} from "./entry-actions.js";

const fresh: EntryActionState = {
  transactionStatus: "new",
  transactionType: "user_or_scanner",
  codeNumber: 10,
  codeType: "charge",
  voided: false,
  isReversal: false,
  isReversed: false,
  invoiceStatus: null,
  onStatement: false,
  serviceDate: "2026-03-10",
  closedThrough: null,
  refundedThroughGateway: false,
  customerRefusal: null,
};
const entry = (changes: Partial<EntryActionState>): EntryActionState => ({ ...fresh, ...changes });

describe("entry actions", () => {
  it("offers edit and delete on a new entry", () => {
    expect(entryActions(fresh)).toEqual(["edit", "delete"]);
  });

  it("offers edit, void and open invoice on an entry of an open invoice", () => {
    expect(entryActions(entry({ transactionStatus: "attached", invoiceStatus: "open" }))).toEqual([
      "edit",
      "delete",
      "void",
      "open_invoice",
    ]);
  });

  it("offers only reverse and open invoice on an entry of a closed or processed invoice", () => {
    for (const invoiceStatus of ["closed", "processed"] as const)
      expect(entryActions(entry({ transactionStatus: "attached", invoiceStatus }))).toEqual([
        "reverse",
        "open_invoice",
      ]);
  });

  it("offers reverse only on a billed entry, and nothing once it is reversed", () => {
    expect(entryActions(entry({ onStatement: true }))).toEqual(["reverse"]);
    expect(entryActions(entry({ onStatement: true, isReversed: true }))).toEqual([]);
  });

  it("offers delete void on a new void, not once it refunded through the gateway", () => {
    const voiding = entry({ transactionType: "voids_a_transaction" });
    expect(entryActions(voiding)).toEqual(["delete_void"]);
    expect(entryActions({ ...voiding, refundedThroughGateway: true })).toEqual([]);
    expect(entryActionRefusal({ ...voiding, refundedThroughGateway: true }, "delete_void")?.message).toBe(
      REFUNDED_OFFSET_MESSAGE,
    );
  });

  it("offers delete reversal on a reversal not billed and not refunded through the gateway", () => {
    const reversal = entry({ isReversal: true });
    expect(entryActions(reversal)).toEqual(["delete_reversal"]);
    expect(entryActions({ ...reversal, refundedThroughGateway: true })).toEqual([]);
    expect(entryActions({ ...reversal, onStatement: true })).toEqual([]);
  });

  it("offers no change of an entry dated in the closed period, but still its void or reversal", () => {
    const closed = { closedThrough: "2026-03-31" };
    expect(entryActions(entry(closed))).toEqual([]);
    expect(entryActionRefusal(entry(closed), "delete")?.field).toBe("service_date");
    expect(entryActions(entry({ ...closed, transactionStatus: "attached", invoiceStatus: "open" }))).toEqual([
      "void",
      "open_invoice",
    ]);
    expect(entryActions(entry({ ...closed, isReversal: true }))).toEqual([]);
    expect(entryActions(entry({ closedThrough: "2026-03-09" }))).toEqual(["edit", "delete"]);
  });

  it("offers no edit of an archived customer's entry, nor of a charge of one marked for deletion", () => {
    expect(entryActions(entry({ customerRefusal: "archived" }))).toEqual(["delete"]);
    expect(entryActions(entry({ customerRefusal: "marked_for_deletion" }))).toEqual(["delete"]);
    expect(entryActions(entry({ customerRefusal: "marked_for_deletion", codeType: "payment" }))).toEqual([
      "edit",
      "delete",
    ]);
  });

  it("offers nothing on system-code entries but what their offsets allow", () => {
    expect(entryActions(entry({ codeNumber: -1 }))).toEqual(["reverse"]);
  });
});

describe("invoice and statement actions", () => {
  it("offers an open invoice's changes but no PDF", () => {
    expect(invoiceActions({ status: "open" })).toEqual(["edit", "close", "separate", "delete"]);
  });

  it("offers a closed invoice reopen, delete and its PDF", () => {
    expect(invoiceActions({ status: "closed" })).toEqual(["reopen", "delete", "pdf"]);
  });

  it("offers a processed (sent) invoice only its PDF", () => {
    expect(invoiceActions({ status: "processed" })).toEqual(["pdf"]);
  });

  it("offers reopen only on a processed statement, its PDF always", () => {
    expect(statementActions({ status: "processed" })).toEqual([
      "reopen",
      "resend_email",
      "add_to_pool",
      "pdf",
    ]);
    expect(statementActions({ status: "open" })).toEqual(["resend_email", "add_to_pool", "pdf"]);
  });

  it("offers reissue only on a current statement that no longer proves itself, once its period is closed", () => {
    const failing = { status: "processed", proves: false, statementDate: "2026-06-05" } as const;
    expect(statementActions({ ...failing, periodClosed: true })).toContain("reissue");
    expect(statementActions({ ...failing, periodClosed: false })).not.toContain("reissue");
    expect(statementActionRefusal({ ...failing, periodClosed: false }, "reissue")).toBe(
      "Close the books through 06/05/2026 again before reissuing: a corrected statement is final once issued.",
    );
    // A replaced version is kept as it was sent: only its PDF.
    expect(statementActions({ ...failing, periodClosed: true, replaced: true })).toEqual(["pdf"]);
    expect(statementActions({ status: "processed", queuedForPool: true })).not.toContain("add_to_pool");
  });
});
