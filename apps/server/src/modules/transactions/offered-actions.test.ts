import { and, eq } from "drizzle-orm";
import {
  ENTRY_ACTIONS,
  INVOICE_ACTIONS,
  STATEMENT_ACTIONS,
  type EntryAction,
  type InvoiceRecord,
  type OfferedInvoiceAction,
  type StatementAction,
  type StatementRecord,
  type TransactionRecord,
} from "@cyclebill/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { clients, codes, invoices, statements, transactions } from "../../db/tables.js";
import {
  cardPayment,
  customerWithStatement,
  forgetRateLimits,
  makePayment,
  usePaymentFixture,
} from "../../test-support/payment-fixture.js";
import type { ApiResponse } from "../../test-support/test-app.js";

// Every action a record offers is one the server takes, and every one it refuses is not offered:
// each action runs on a fresh copy of each kind of record, and its answer is held to the offer.

const fixture = usePaymentFixture();
let keyNo = 0;
let chargeCode = 0;
const clientA = () => fixture.tenants.a.clientId;
const staff = () => fixture.testApp.client(fixture.tenants.a.staffToken);

beforeAll(async () => {
  const [code] = await fixture.testApp.db
    .insert(codes)
    .values({ clientId: clientA(), code: 410, description: "Offered", codeType: "charge" })
    .returning({ id: codes.id });
  chargeCode = code!.id;
});

function ok(response: ApiResponse): ApiResponse {
  expect(response.status, response.text).toBeLessThan(300);
  return response;
}

async function newCustomer(): Promise<number> {
  return (await customerWithStatement(fixture.testApp, clientA(), "10.00")).customerId;
}

async function charge(customer: number, extra: Record<string, unknown> = {}): Promise<TransactionRecord> {
  const body = { customer, code: chargeCode, description: "Offered", rate: "12.00", force: true, ...extra };
  return ok(await staff().post("/api/transactions/", body)).body as TransactionRecord;
}

async function invoiceWithCharge(status: "open" | "closed" | "processed"): Promise<TransactionRecord> {
  const customer = await newCustomer();
  const invoice = ok(await staff().post("/api/invoices/", { customer })).body as InvoiceRecord;
  const entry = await charge(customer, { invoice: invoice.id });
  if (status !== "open") ok(await staff().post(`/api/invoices/${invoice.id}/close/`));
  if (status === "processed")
    await fixture.testApp.db
      .update(invoices)
      .set({ invoiceStatus: "processed" })
      .where(eq(invoices.id, invoice.id));
  return entry;
}

async function billed(entryId: number, statementId: number): Promise<void> {
  await fixture.testApp.db
    .update(transactions)
    .set({ statementId })
    .where(and(eq(transactions.clientId, clientA()), eq(transactions.id, entryId)));
}

async function setClosedThrough(date: string | null): Promise<void> {
  await fixture.testApp.db.update(clients).set({ booksClosedThrough: date }).where(eq(clients.id, clientA()));
}

/** Each kind of entry, made afresh; returns the id of the entry under test. */
const entryKinds: Record<string, () => Promise<number>> = {
  "a new entry": async () => (await charge(await newCustomer())).id,
  "an entry on an open invoice": async () => (await invoiceWithCharge("open")).id,
  "an entry on a closed invoice": async () => (await invoiceWithCharge("closed")).id,
  "an entry on a processed invoice": async () => (await invoiceWithCharge("processed")).id,
  "a voided entry": async () => {
    const entry = await invoiceWithCharge("open");
    ok(await staff().post(`/api/transactions/${entry.id}/void_transaction/`));
    return entry.id;
  },
  "a void": async () => {
    const entry = await invoiceWithCharge("open");
    return (
      ok(await staff().post(`/api/transactions/${entry.id}/void_transaction/`)).body as TransactionRecord
    ).id;
  },
  "a reversed charge": async () => {
    const entry = await invoiceWithCharge("closed");
    ok(await staff().post(`/api/transactions/${entry.id}/reversal/`));
    return entry.id;
  },
  "a reversal of a charge": async () => {
    const entry = await invoiceWithCharge("closed");
    return (ok(await staff().post(`/api/transactions/${entry.id}/reversal/`)).body as TransactionRecord).id;
  },
  "a card payment's reversal refunded through the gateway": async () => {
    await forgetRateLimits(fixture.testApp);
    const { customerId, token } = await customerWithStatement(fixture.testApp, clientA(), "40.00");
    // A new odd amount each time: the sandbox approves odd amounts in TEST mode, and refuses a
    // repeat of the same card and amount as a duplicate.
    const paid = await makePayment(
      fixture.testApp,
      cardPayment(token, `${String(2 * ++keyNo + 1)}.00`),
      `offered-${keyNo}`,
    );
    expect(paid.status, paid.text).toBe(200);
    const entries = (await staff().get("/api/transactions/", { customer__id: customerId })).body as {
      results: TransactionRecord[];
    };
    const payment = entries.results.find((entry) => entry.code_type === "payment");
    expect(payment, JSON.stringify(paid.body)).toBeDefined();
    const reversal = ok(await staff().post(`/api/transactions/${payment!.id}/reversal/`))
      .body as TransactionRecord;
    expect(reversal.gateway_trans_id).toBeTruthy();
    return reversal.id;
  },
  "an entry billed on a statement": async () => {
    const { customerId, statementId } = await customerWithStatement(fixture.testApp, clientA(), "10.00");
    const entry = await charge(customerId);
    await billed(entry.id, statementId);
    return entry.id;
  },
  "a reversal billed on a statement": async () => {
    const { customerId, statementId } = await customerWithStatement(fixture.testApp, clientA(), "10.00");
    const entry = await charge(customerId);
    await billed(entry.id, statementId);
    const reversal = ok(await staff().post(`/api/transactions/${entry.id}/reversal/`))
      .body as TransactionRecord;
    await billed(reversal.id, statementId);
    return reversal.id;
  },
  "an entry dated in the closed period": async () => {
    const entry = await charge(await newCustomer(), { serviceDate: "2026-01-20" });
    await setClosedThrough("2026-01-31");
    return entry.id;
  },
};

async function runEntryAction(entry: TransactionRecord, action: EntryAction): Promise<number> {
  const path = `/api/transactions/${entry.id}/`;
  switch (action) {
    case "edit":
      return (
        await staff().put(path, {
          customer: entry.customer,
          code: entry.code,
          description: "Edited",
          rate: entry.rate,
          quantity: entry.quantity,
          serviceDate: entry.serviceDate,
          unitofmeasure: entry.unitofmeasure ?? 1,
        })
      ).status;
    case "delete":
      return (await staff().delete(path)).status;
    case "void":
      return (await staff().post(`${path}void_transaction/`)).status;
    case "delete_void":
      return (await staff().delete(`${path}delete_void_transaction/`)).status;
    case "reverse":
      return (await staff().post(`${path}reversal/`)).status;
    case "delete_reversal":
      return (await staff().delete(`${path}delete_reversal/`)).status;
    case "open_invoice":
      return entry.invoice === null ? 400 : (await staff().get(`/api/invoices/${entry.invoice}/`)).status;
  }
}

describe("entries offer exactly the actions the server takes", () => {
  for (const [kind, make] of Object.entries(entryKinds)) {
    it(`on ${kind}`, async () => {
      const answers: Record<string, boolean> = {};
      const offers: Record<string, boolean> = {};
      for (const action of ENTRY_ACTIONS) {
        try {
          const id = await make();
          const entry = ok(await staff().get(`/api/transactions/${id}/`)).body as TransactionRecord;
          offers[action] = entry.actions.includes(action);
          const status = await runEntryAction(entry, action);
          expect(status === 400 || status === 409 || status < 300, `${action}: ${status}`).toBe(true);
          answers[action] = status < 300;
        } finally {
          await setClosedThrough(null);
        }
      }
      expect(offers).toEqual(answers);
    });
  }
});

async function invoiceOf(status: "open" | "closed" | "processed"): Promise<InvoiceRecord> {
  const entry = await invoiceWithCharge(status);
  return ok(await staff().get(`/api/invoices/${entry.invoice}/`)).body as InvoiceRecord;
}

async function runInvoiceAction(invoice: InvoiceRecord, action: OfferedInvoiceAction): Promise<number> {
  const path = `/api/invoices/${invoice.id}/`;
  switch (action) {
    case "edit":
      return (await staff().put(path, { invoice_date: invoice.invoice_date })).status;
    case "close":
    case "reopen":
      return (await staff().post(`${path}${action}/`)).status;
    case "separate":
      return (await staff().post(`${path}separateTransactionsFromInvoice/`)).status;
    case "delete":
      return (await staff().delete(path, { document: "invoice" })).status;
    case "pdf":
      return (await staff().get(`${path}pdf/`)).status;
  }
}

describe("invoices offer exactly the actions the server takes", () => {
  for (const status of ["open", "closed", "processed"] as const) {
    it(`on a ${status} invoice`, async () => {
      const answers: Record<string, boolean> = {};
      const offers: Record<string, boolean> = {};
      for (const action of INVOICE_ACTIONS) {
        const invoice = await invoiceOf(status);
        offers[action] = invoice.actions.includes(action);
        const answer = await runInvoiceAction(invoice, action);
        expect(answer === 400 || answer === 409 || answer < 300, `${action}: ${answer}`).toBe(true);
        answers[action] = answer < 300;
      }
      expect(offers).toEqual(answers);
    });
  }
});

describe("statements offer exactly the actions the server takes", () => {
  for (const status of ["open", "processed"] as const) {
    it(`on a ${status} statement`, async () => {
      const answers: Record<string, boolean> = {};
      const offers: Record<string, boolean> = {};
      for (const action of STATEMENT_ACTIONS satisfies readonly StatementAction[]) {
        const { statementId } = await customerWithStatement(fixture.testApp, clientA(), "10.00");
        await fixture.testApp.db
          .update(statements)
          .set({ invoiceStatus: status })
          .where(eq(statements.id, statementId));
        const statement = ok(await staff().get(`/api/statements/${statementId}/`)).body as StatementRecord;
        offers[action] = statement.actions.includes(action);
        const path = `/api/statements/${statementId}/`;
        const answer =
          action === "pdf"
            ? (await staff().get(`${path}pdf/`)).status
            : (await staff().post(`${path}${action}/`)).status;
        expect(answer === 400 || answer === 409 || answer < 300, `${action}: ${answer}`).toBe(true);
        answers[action] = answer < 300;
      }
      expect(offers).toEqual(answers);
    });
  }
});
