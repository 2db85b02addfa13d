import type { Locator, Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { createCode, createInvoice, postEntry } from "../support/api.js";
import { makePayClient, payByCard, usePaymentWorld } from "../payments/payment-world.js";
import { centsOfShown } from "../support/shown-amounts.js";

const ADMIN_EMAIL = "offset-signs-admin@example.test";
const ADMIN_PASSWORD = "offset-Signs-Admin-Password-1";

type LedgerRow = {
  id: number;
  description: string;
  ledger_amount: string;
  gateway_trans_id: string | null;
  invoice: number | null;
};

/** A row of a transaction table as the clerk reads it: description, amount cell and badges. */
type ShownRow = { description: string; amount: string; badges: string[] };

const cents = centsOfShown;

/** Every body row of a table, reading the Amount column by its header. */
async function shownRows(table: Locator): Promise<ShownRow[]> {
  return table.evaluate((element) => {
    const headers = Array.from(element.querySelectorAll("thead th")).map((cell) => cell.textContent?.trim());
    const amountAt = headers.indexOf("Amount");
    const descriptionAt = headers.indexOf("Description/Memo");
    return Array.from(element.querySelectorAll("tbody tr"))
      .map((row) => Array.from(row.querySelectorAll(":scope > td")))
      .filter((cells) => cells.length === headers.length)
      .map((cells) => {
        const description = cells[descriptionAt]!;
        return {
          description: description.querySelector("p")?.textContent?.trim() ?? "",
          amount: cells[amountAt]!.textContent?.trim() ?? "",
          badges: Array.from(description.querySelectorAll(".mantine-Badge-label")).map((badge) =>
            (badge.textContent ?? "").trim(),
          ),
        };
      });
  });
}

describe("offset rows show the sign of what they do to the totals", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);

  test("voids, charge, payment and adjustment reversals: each row's sign agrees with Charges, Payments and credits, and Net", async () => {
    const { admin } = world.current();
    const pay = await makePayClient(admin, "Offset Signs Client");
    const clientId = pay.client.id;
    const code = (number: number, description: string, code_type: string) =>
      createCode(admin, clientId, { code: number, description, code_type });
    const debit = await code(201, "Debit adjustment", "debit");
    const credit = await code(301, "Credit adjustment", "adjust");
    const check = await code(900, "Check payment", "payment");
    const olive = await pay.customer("Olive", "Offset");

    const invoice = (date: string) => createInvoice(admin, clientId, olive.id, date);
    const open = await invoice("2026-04-01");
    const closing = await invoice("2026-04-02");
    const post = (codeId: number, description: string, rate: string, invoiceId?: number) =>
      postEntry(admin, clientId, {
        customer: olive.id,
        code: codeId,
        description,
        rate,
        serviceDate: "2026-04-01",
        ...(invoiceId === undefined ? {} : { invoice: invoiceId }),
      });
    const act = (id: number, path: "void_transaction" | "reversal") =>
      admin.request("POST", `transactions/${id}/${path}/?client_id=${clientId}`);

    // Voids, on the open invoice: a charge, a debit, a credit and a check payment.
    await post(pay.chargeCode, "Plain mowing", "20.00");
    const voided = [
      await post(pay.chargeCode, "Voided mowing", "45.00", open.id),
      await post(debit.id, "Voided debit", "2.00", open.id),
      await post(credit.id, "Voided credit", "3.00", open.id),
      await post(check.id, "Voided check", "11.00", open.id),
    ];
    for (const entry of voided) await act(entry.id, "void_transaction");
    // Reversals, of lines on a closed invoice: a charge, a debit and a credit.
    const reversed = [
      await post(pay.chargeCode, "Reversed mowing", "88.94", closing.id),
      await post(debit.id, "Reversed debit", "7.00", closing.id),
      await post(credit.id, "Reversed credit", "5.00", closing.id),
    ];
    await admin.request("POST", `invoices/${closing.id}/close/?client_id=${clientId}`);
    for (const entry of reversed) await act(entry.id, "reversal");
    // A card payment through the sandbox (an odd dollar amount approves), then its reversal (a refund).
    const paid = await payByCard(admin, clientId, olive.id, "9.00");
    expect(paid.message_response).toBeTruthy();
    expect(paid.approved).toBe(true);
    const ledger = async () =>
      (
        await admin.request<{ results: LedgerRow[] }>(
          "GET",
          `transactions/?client_id=${clientId}&limit=100&ordering=id`,
        )
      ).results;
    const card = (await ledger()).find(
      (row) => row.gateway_trans_id !== null && row.ledger_amount === "-9.00",
    );
    if (!card) throw new Error("the card payment was not recorded");
    await act(card.id, "reversal");

    const page: Page = await world.openPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/transactions/search?client_id=${clientId}`);
    const table = page.getByRole("table", { name: "Transactions" });
    const rows = await ledger();
    await expect.poll(async () => (await shownRows(table)).length).toBe(rows.length);
    const totals = page.getByLabel("Totals");
    await totals.getByText(`${rows.length} transactions`).waitFor();
    await page.screenshot({ path: "/tmp/offset-signs-search.png", fullPage: true });

    const shown = await shownRows(table);
    const totalsText = (await totals.textContent()) ?? "";
    const figure = (label: string) => {
      const match = new RegExp(`${label} (-?\\$[\\d,]+\\.\\d{2})`).exec(totalsText);
      if (!match) throw new Error(`no ${label} in "${totalsText}"`);
      return cents(match[1]!);
    };
    // The rows add up to the totals above them. A void or reversal counts on the side of the entry
    // it takes back (issue 41 point 7: a payment's reversal is no charge), so each side nets its
    // pairs: charges and debits with theirs, credits and payments with theirs.
    const chargeSide = new Set([
      "Plain mowing",
      "Voided mowing",
      "Voided debit",
      "Reversed mowing",
      "Reversed debit",
    ]);
    const sideOf = (description: string) =>
      chargeSide.has(description.replace(/^(VOID|REVERSAL): /, "")) ? "charges" : "credits";
    const sum = (side: "charges" | "credits") =>
      shown
        .filter((row) => sideOf(row.description) === side)
        .reduce((total, row) => total + cents(row.amount), 0);
    expect({
      charges: sum("charges"),
      credits: sum("credits"),
      net: shown.reduce((total, row) => total + cents(row.amount), 0),
    }).toEqual({ charges: figure("Charges"), credits: figure("Payments and credits"), net: figure("Net") });

    // Each offset shows the opposite of its original; the three rows by value.
    const amountOf = (description: string) => shown.find((row) => row.description === description)?.amount;
    const cardDescription = card.description;
    const pairs: [string, string][] = [
      ...["Voided mowing", "Voided debit", "Voided credit", "Voided check"].map((name): [string, string] => [
        name,
        `VOID: ${name}`,
      ]),
      ...["Reversed mowing", "Reversed debit", "Reversed credit", cardDescription].map(
        (name): [string, string] => [name, `REVERSAL: ${name}`.slice(0, 60)],
      ),
    ];
    for (const [original, offset] of pairs) {
      const both = [amountOf(original), amountOf(offset)].map((value) =>
        cents(value ?? `missing: ${original}`),
      );
      expect({ original, sum: both[0]! + both[1]!, zero: both[0] === 0 }).toEqual({
        original,
        sum: 0,
        zero: false,
      });
    }
    expect(amountOf("REVERSAL: Reversed mowing")).toBe("-$88.94");
    expect(amountOf(`REVERSAL: ${cardDescription}`.slice(0, 60))).toBe("$9.00");
    expect(amountOf("VOID: Voided mowing")).toBe("-$45.00");
    expect(amountOf("REVERSAL: Reversed credit")).toBe("$5.00");
    expect(amountOf("VOID: Voided debit")).toBe("-$2.00");

    // A voided original says so, and so does a reversed one.
    const badgesOf = (description: string) => shown.find((row) => row.description === description)?.badges;
    for (const name of ["Voided mowing", "Voided debit", "Voided credit", "Voided check"])
      expect({ name, badges: badgesOf(name) }).toEqual({ name, badges: ["Voided"] });
    for (const name of ["Reversed mowing", "Reversed debit", "Reversed credit", cardDescription])
      expect({ name, badges: badgesOf(name) }).toEqual({ name, badges: ["Reversed"] });

    // Invoice edit shows the same rule: an invoice's lines add up to its total, a voided line (its
    // void is not on the invoice) counting for nothing, as the total counts it.
    const invoiceLines = async (invoiceId: number, shot: string) => {
      await page.goto(`/transactions/invoice/edit/${invoiceId}?client_id=${clientId}`);
      const lines = page.getByRole("table", { name: "Invoice transactions" });
      await expect
        .poll(async () => (await shownRows(lines)).filter((row) => row.description !== "").length)
        .toBe(rows.filter((row) => row.invoice === invoiceId).length);
      await page.screenshot({ path: shot, fullPage: true });
      const total = ((await page.getByLabel("Invoice total").textContent()) ?? "").replace("Total ", "");
      const shownLines = (await shownRows(lines)).filter((row) => row.description !== "");
      const counted = shownLines.filter((row) => !row.badges.includes("Voided"));
      expect(counted.reduce((sum, row) => sum + cents(row.amount), 0)).toBe(cents(total));
      return shownLines;
    };
    const openLines = await invoiceLines(open.id, "/tmp/offset-signs-invoice-open.png");
    expect(openLines.find((row) => row.description === "Voided check")).toEqual({
      description: "Voided check",
      amount: "-$11.00",
      badges: ["Voided"],
    });
    const closedLines = await invoiceLines(closing.id, "/tmp/offset-signs-invoice-closed.png");
    expect(closedLines.map((row) => [row.description, row.amount, row.badges]).sort()).toEqual([
      ["Reversed credit", "-$5.00", ["Reversed"]],
      ["Reversed debit", "$7.00", ["Reversed"]],
      ["Reversed mowing", "$88.94", ["Reversed"]],
    ]);
  });
});
