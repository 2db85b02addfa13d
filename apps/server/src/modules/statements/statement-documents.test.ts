import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { clients, customerPaymentMethods, customers, invoices } from "../../db/tables.js";
import { pdfText } from "../../test-support/pdf-text.js";
import { gatewayAccountFields } from "../../test-support/stored-cards.js";
import { businessToday } from "../../clock.js";
import { attachTransactions, createInvoice } from "../invoices/create-invoice.js";
import { createStatement } from "./create-statement.js";
import { STATEMENT_FIRST_PAGE_LINES } from "./statement-page.pdf.js";
import {
  fixture,
  newCustomer,
  owner,
  post,
  tenantA,
  testApp,
  useStatementWorld,
} from "../../test-support/statement-world.js";

// Issue 41 point 7, the statement and invoice documents: how many lines page 1 holds above the
// tear-off stub, an autopay statement's notice and due date (PDF and list alike), a reversal naming
// the date of what it reverses, and an invoice's void printed as the invoice screen shows it.

useStatementWorld();

beforeAll(async () => {
  // The demo's terms: due on receipt, with a message line, so the page holds what a real one does.
  await testApp.db
    .update(clients)
    .set({
      termsMessage: "Due on receipt",
      dueDays: 0,
      billMessageLine1: "Thank you for your business.",
      ...gatewayAccountFields(testApp.config.secretsKey, {
        accountId: "100000000101",
        secretKey: "PAYMENTSTESTSECRETKEYA0123456789",
      }),
    })
    .where(eq(clients.id, fixture.a.clientId));
});

async function pdfOf(path: string): Promise<string> {
  const response = await fetch(`${testApp.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${fixture.a.ownerToken}` },
  });
  expect(response.status).toBe(200);
  return pdfText(new Uint8Array(await response.arrayBuffer()));
}

/** The PDF's pages as pdftotext splits them (form feeds), the last empty one dropped. */
function pagesOf(text: string): string[] {
  return text.split("\f").filter((page, index, all) => index < all.length - 1 || page.trim() !== "");
}

/** A statement of `count` charge lines in March 2024 (a customer note, when given). */
async function statementOfLines(count: number, note = "") {
  const customerId = await newCustomer();
  if (note) await testApp.db.update(customers).set({ message: note }).where(eq(customers.id, customerId));
  for (let line = 1; line <= count; line++)
    await post(customerId, "charge", "10.00", `2024-03-${String(1 + (line % 28)).padStart(2, "0")}`);
  return createStatement(testApp.db, tenantA(), { customerId, statementDate: "2024-03-31" });
}

describe("page 1 of a statement", () => {
  it("holds an 11-line statement whole above the stub: one page, no overflow", async () => {
    const statement = await statementOfLines(11);
    const pages = pagesOf(await pdfOf(`/api/statements/${statement.id}/pdf/`));
    expect(pages).toHaveLength(1);
    const [first = ""] = pages;
    expect(first).toContain("Page 1 of 1");
    // All eleven lines, the terms and the message sit above the stub (its "Please detach" line).
    const stub = first.indexOf("Please detach and return");
    expect(stub).toBeGreaterThan(0);
    expect(first.match(/charge entry/g)).toHaveLength(11);
    expect(first.lastIndexOf("charge entry")).toBeLessThan(stub);
    expect(first.indexOf("Thank you for your business.")).toBeLessThan(stub);
  });

  it("holds the rule's count with two message lines and a note; a longer one continues on page 2", async () => {
    await testApp.db
      .update(clients)
      .set({ billMessageLine2: "Our office is closed on December 25 and January 1." })
      .where(eq(clients.id, fixture.a.clientId));
    try {
      const fits = await statementOfLines(STATEMENT_FIRST_PAGE_LINES, "Your meter is read on the 3rd.");
      const [only = "", ...more] = pagesOf(await pdfOf(`/api/statements/${fits.id}/pdf/`));
      expect(more).toHaveLength(0);
      expect(only.match(/charge entry/g)).toHaveLength(STATEMENT_FIRST_PAGE_LINES);
      expect(only.indexOf("Your meter is read on the 3rd.")).toBeLessThan(
        only.indexOf("Please detach and return"),
      );

      const long = await statementOfLines(3 * STATEMENT_FIRST_PAGE_LINES, "Your meter is read on the 3rd.");
      const pages = pagesOf(await pdfOf(`/api/statements/${long.id}/pdf/`));
      expect(pages).toHaveLength(2);
      // Page 1 is as full as the short statement's: the overflow is only what did not fit.
      expect(pages[0]?.match(/charge entry/g)?.length).toBeGreaterThanOrEqual(STATEMENT_FIRST_PAGE_LINES);
      expect(pages[1]).toContain("Page 2 of 2");
      expect(pages.join("").match(/charge entry/g)).toHaveLength(3 * STATEMENT_FIRST_PAGE_LINES);
    } finally {
      await testApp.db
        .update(clients)
        .set({ billMessageLine2: "" })
        .where(eq(clients.id, fixture.a.clientId));
    }
  });
});

describe("an autopay statement", () => {
  it("announces the charge instead of Amount Enclosed and Due on receipt; the list shows the PDF's date", async () => {
    const customerId = await newCustomer();
    await testApp.db.update(customers).set({ autopayFlag: true }).where(eq(customers.id, customerId));
    await testApp.db.insert(customerPaymentMethods).values({
      clientId: fixture.a.clientId,
      customerId,
      kind: "card",
      token: `token-${customerId}`,
      mask: "xxxxxxxxxxxx1111",
      cardType: "VISA",
      expiry: "1299",
    });
    await post(customerId, "charge", "40.00", "2024-03-10");
    const statement = await createStatement(testApp.db, tenantA(), {
      customerId,
      statementDate: "2024-03-31",
    });

    const text = (await pdfOf(`/api/statements/${statement.id}/pdf/`)).replace(/\s+/g, " ");
    // Due on receipt would be 03/31; autopay charges the day after the statement, in the open period.
    expect(text).toContain(
      "Autopay: $40.00 will be charged to your VISA ending 1111 on 04/01/2024. Nothing to pay.",
    );
    expect(text).toContain("Autopay on 04/01/2024");
    expect(text).not.toMatch(/Amount Enclosed|Due on receipt|On receipt|Due Date|with your payment/i);

    const list = await owner.get("/api/invoices-and-statements/", {
      customer_id: customerId,
      document_type: "statements",
    });
    expect(list.status).toBe(200);
    const [row] = (list.body as { results: { id: number; due_date: string | null; autopay: boolean }[] })
      .results;
    expect(row).toMatchObject({ id: statement.id, autopay: true, due_date: "2024-04-01" });
  });
});

describe("a reversal line", () => {
  it("names what it reverses and that entry's date", async () => {
    const customerId = await newCustomer();
    await post(customerId, "charge", "50.00", "2024-03-01");
    const payment = await post(customerId, "payment", "50.00", "2024-03-03");
    await createStatement(testApp.db, tenantA(), { customerId, statementDate: "2024-03-31" });
    // Billed, so it can only be reversed (dated today).
    const reversed = await owner.post(`/api/transactions/${payment.id}/reversal/`, {});
    expect(reversed.status, reversed.text).toBe(201);
    const next = await createStatement(testApp.db, tenantA(), { customerId, statementDate: businessToday() });
    const text = await pdfOf(`/api/statements/${next.id}/pdf/`);
    expect(text).toContain("Reversal of payment of 03/03/2024");
    expect(text).not.toContain("REVERSAL:");
  });
});

describe("an invoice with a voided line", () => {
  it("prints the voided line as the invoice screen shows it: marked, not counted, no invented offset", async () => {
    const customerId = await newCustomer();
    const kept = await post(customerId, "charge", "20.00", "2024-03-05");
    const mistake = await post(customerId, "charge", "5.00", "2024-03-06");
    const invoice = await createInvoice(testApp.db, tenantA(), { customerId, invoiceDate: "2024-03-07" });
    await attachTransactions(testApp.db, tenantA(), invoice.id, [kept.id, mistake.id]);
    const voided = await owner.post(`/api/transactions/${mistake.id}/void_transaction/`, {});
    expect(voided.status, voided.text).toBe(201);
    await testApp.db.update(invoices).set({ invoiceStatus: "closed" }).where(eq(invoices.id, invoice.id));

    const screen = (await owner.get(`/api/invoices/${invoice.id}/`)).body as { total: string };
    expect(screen.total).toBe("20.00");
    const text = (await pdfOf(`/api/invoices/${invoice.id}/pdf/`)).replace(/[ \t]+/g, " ");
    expect(text).toContain("charge entry (voided)");
    expect(text).not.toMatch(/Void of|VOID:/);
    expect(text).toContain("Charges $20.00");
    expect(text).toContain("Payments and credits $0.00");
    expect(text).toMatch(/Invoice total \$20\.00/);
  });
});
