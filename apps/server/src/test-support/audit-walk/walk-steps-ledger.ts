import { and, eq } from "drizzle-orm";
import { customers } from "../../db/tables.js";
import { customerWithStatement } from "../payment-fixture.js";
import type { ApiResponse } from "../test-app.js";
import { idOf, ok, type WalkStep, type WalkWorld } from "./walk-world.js";

// The audit walk's steps for entries, invoices, statements, closed periods and the client's codes.

/** A charge of `rate` to the walk's customer, made for a step (itself in the trail as a post). */
let entries = 0;

export async function walkEntry(world: WalkWorld): Promise<number> {
  entries += 1;
  const posted = await world.staff.post("/api/transactions/", {
    customer: world.made.walkCustomer,
    code: world.made.chargeCode,
    rate: `${10 + entries}.00`,
    quantity: "1",
    description: `Walk charge ${entries}`,
  });
  return idOf(ok(posted, "entry"));
}

/** An entry on an open (or closed) invoice: what a void (or a reversal) takes. */
async function walkInvoiceEntry(world: WalkWorld, status: "open" | "closed"): Promise<number> {
  const entry = await walkEntry(world);
  const invoice = idOf(
    ok(await world.staff.post("/api/transactions/make_invoice/", { ids: [entry] }), "invoice"),
  );
  if (status === "closed") ok(await world.staff.post(`/api/invoices/${invoice}/close/`), "close");
  return entry;
}

async function walkInvoice(world: WalkWorld): Promise<number> {
  const entry = await walkEntry(world);
  const made = await world.staff.post("/api/transactions/make_invoice/", { ids: [entry] });
  return idOf(ok(made, "invoice"));
}

const post = (world: WalkWorld, path: string, body?: unknown): Promise<ApiResponse> =>
  world.staff.post(path, body);

export const ledgerSteps: WalkStep[] = [
  {
    route: "POST /api/customers/{id}/delete-flag/",
    action: "customer.mark_for_deletion",
    call: (world) =>
      world.owner.post(`/api/customers/${world.made.walkCustomer ?? 0}/delete-flag/`, { delete_flag: "S" }),
  },
  {
    route: "POST /api/customers/{id}/undelete-now/",
    action: "customer.unarchive",
    call: async (world) => {
      const id = world.made.walkCustomer ?? 0;
      ok(await world.owner.delete(`/api/customers/${id}/`), "archive");
      return world.owner.post(`/api/customers/${id}/undelete-now/`);
    },
  },
  {
    route: "POST /api/codes/mass-update/",
    action: "code.update",
    call: (world) =>
      world.owner.post("/api/codes/mass-update/", {
        ids: [world.made.chargeCode],
        code_type: "",
        taxable: true,
      }),
  },
  {
    route: "POST /api/transactions/mass_update/",
    action: "ledger_entry.update",
    call: async (world) =>
      post(world, "/api/transactions/mass_update/", {
        ids: [await walkEntry(world)],
        changes: { description: "Walk adjusted" },
      }),
  },
  {
    route: "POST /api/transactions/{id}/edit_transaction/",
    action: "ledger_entry.update",
    call: async (world) => {
      const id = await walkEntry(world);
      return post(world, `/api/transactions/${id}/edit_transaction/`, {
        customer: world.made.walkCustomer,
        code: world.made.chargeCode,
        rate: "9.75",
        quantity: "1",
        description: "Walk edited",
      });
    },
  },
  {
    route: "POST /api/transactions/{id}/void_transaction/",
    action: "ledger_entry.void",
    call: async (world) => {
      const entry = await walkInvoiceEntry(world, "open");
      const answer = await post(world, `/api/transactions/${entry}/void_transaction/`);
      world.made.voidEntry = idOf(ok(answer, "void"));
      return answer;
    },
  },
  {
    route: "DELETE /api/transactions/{id}/delete_void_transaction/",
    action: "ledger_entry.delete",
    call: (world) =>
      world.staff.delete(`/api/transactions/${world.made.voidEntry ?? 0}/delete_void_transaction/`),
  },
  {
    route: "POST /api/transactions/{id}/reversal/",
    action: "ledger_entry.reversal",
    call: async (world) => {
      const entry = await walkInvoiceEntry(world, "closed");
      const answer = await post(world, `/api/transactions/${entry}/reversal/`);
      world.made.reversal = idOf(ok(answer, "reversal"));
      return answer;
    },
  },
  {
    route: "DELETE /api/transactions/{id}/delete_reversal/",
    action: "ledger_entry.delete",
    call: (world) => world.staff.delete(`/api/transactions/${world.made.reversal ?? 0}/delete_reversal/`),
  },
  {
    route: "POST /api/transactionsroutes/",
    action: "ledger_entry.post",
    call: async (world) => {
      const group = idOf(
        ok(await world.owner.post("/api/routes/", { route_name: "Walk batch group" }), "group"),
      );
      ok(
        await world.owner.post("/api/routeplans/", { route: group, customer: world.made.walkCustomer }),
        "member",
      );
      return post(world, "/api/transactionsroutes/", {
        route: group,
        customers: [world.made.walkCustomer],
        code: world.made.chargeCode,
        amount: "4.25",
        transaction_type: "route",
      });
    },
  },
  {
    route: "POST /api/transactions/make_invoice/",
    action: "invoice.create",
    call: async (world) => post(world, "/api/transactions/make_invoice/", { ids: [await walkEntry(world)] }),
  },
  {
    route: "POST /api/invoices/bulk-add-invoices/",
    action: "invoice.create",
    call: async (world) => {
      await walkEntry(world);
      return world.owner.post("/api/invoices/bulk-add-invoices/", {
        customer_ids: [world.made.walkCustomer],
      });
    },
  },
  {
    route: "POST /api/invoices/{id}/close/",
    action: "invoice.close",
    call: async (world) => {
      world.made.closedInvoice = await walkInvoice(world);
      return post(world, `/api/invoices/${world.made.closedInvoice}/close/`);
    },
  },
  {
    route: "POST /api/invoices/{id}/reopen/",
    action: "invoice.reopen",
    call: (world) => post(world, `/api/invoices/${world.made.closedInvoice ?? 0}/reopen/`),
  },
  {
    route: "POST /api/invoices/{id}/separateTransactionsFromInvoice/",
    action: "invoice.separate_entries",
    call: async (world) =>
      post(world, `/api/invoices/${await walkInvoice(world)}/separateTransactionsFromInvoice/`),
  },
  {
    route: "POST /api/statements/{id}/reopen/",
    action: "statement.reopen",
    call: (world) => world.owner.post(`/api/statements/${world.made.statement ?? 0}/reopen/`),
  },
  {
    route: "POST /api/statements/{id}/resend_email/",
    action: "statement.resend_email",
    call: async (world) => {
      const { statementId, customerId } = await customerWithStatement(world.testApp, world.clientId, "12.00");
      await world.testApp.db
        .update(customers)
        .set({ email: "walk.resend@example.com" })
        .where(and(eq(customers.clientId, world.clientId), eq(customers.id, customerId)));
      world.made.resendStatement = statementId;
      return world.owner.post(`/api/statements/${statementId}/resend_email/`);
    },
  },
  {
    route: "POST /api/statements/{id}/add_to_pool/",
    action: "statement.add_to_pool",
    call: (world) => world.owner.post(`/api/statements/${world.made.resendStatement ?? 0}/add_to_pool/`),
  },
  {
    route: "POST /api/statements/{id}/reissue/",
    action: "statement.reissue",
    call: async (world) => {
      // The fixture's statement does not bill its customer's charge, so it does not prove itself;
      // a correction waits for the books to be closed through its date.
      const { statementId } = await customerWithStatement(world.testApp, world.clientId, "13.00");
      await world.admin.post(`/api/clients/${world.clientId}/closed-period/close/`, {
        closed_through: "2026-01-31",
        reason: "Walk: before a correction",
      });
      return world.owner.post(`/api/statements/${statementId}/reissue/`);
    },
  },
];

/** POSTs that only read: they answer a document or a lookup and change nothing. */
export const readOnlyPosts = [
  { route: "POST /api/statements/combine/", why: "answers one PDF of the chosen statements; writes nothing" },
  {
    route: "POST /api/payments/get-payment-info/",
    why: "looks a statement up for the pay page; writes only went_out's record that it was seen (as rate limits, no trail)",
  },
  {
    route: "POST /api/payments/get-link-info/",
    why: "looks a payment link up for the pay page; writes nothing",
  },
];
