import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { codes, customers } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import type { ApiClient, TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";

let testApp: TestApp;
let fixture: TenantFixture;
let api: ApiClient;
let codeIds: number[];
let customerIds: number[];

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  api = testApp.client(fixture.a.ownerToken);
  const rows = await testApp.db
    .insert(codes)
    .values(
      (["charge", "payment", "adjust", "debit", "flat_discount", "info"] as const).map((codeType, index) => ({
        clientId: fixture.a.clientId,
        code: 10 + index,
        description: codeType,
        codeType,
      })),
    )
    .returning({ id: codes.id });
  codeIds = rows.map((row) => row.id);
  const made = await testApp.db
    .insert(customers)
    .values(
      [1, 2, 3].map((index) => ({
        clientId: fixture.a.clientId,
        customerNo: 900 + index,
        customerName: `Seq ${index}`,
      })),
    )
    .returning({ id: customers.id });
  customerIds = made.map((row) => row.id);
});
afterAll(async () => testApp?.close());

type Step =
  | { kind: "post"; customer: number; code: number; cents: number; quantity: number }
  | { kind: "edit" | "delete" | "invoice" | "void" | "unvoid" | "reverse" | "unreverse"; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("post" as const),
      customer: fc.nat(2),
      code: fc.nat(5),
      cents: fc.integer({ min: 0, max: 500_000 }),
      quantity: fc.integer({ min: 1, max: 4 }),
    }),
  },
  ...(["edit", "delete", "invoice", "void", "unvoid", "reverse", "unreverse"] as const).map((kind) => ({
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant(kind), pick: fc.nat(1000) }),
  })),
);

type Entry = {
  id: number;
  editable: boolean;
  voidable: boolean;
  reversible: boolean;
  void_deletable: boolean;
  reverses_transaction: number | null;
  customer: number;
};

describe("posting sequences", () => {
  it("keep every balance equal to its ledger, and voids and reversals net to zero", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        for (const current of steps) {
          if (current.kind === "post") {
            const cents = String(current.cents).padStart(3, "0");
            await api.post("/api/transactions/", {
              customer: customerIds[current.customer],
              code: codeIds[current.code],
              rate: `${cents.slice(0, -2)}.${cents.slice(-2)}`,
              quantity: String(current.quantity),
              force: true,
            });
            continue;
          }
          const entries = (
            (await api.get("/api/transactions/", { limit: 200, ordering: "id" })).body as { results: Entry[] }
          ).results;
          const candidates = entries.filter((entry) => {
            switch (current.kind) {
              case "edit":
              case "delete":
              case "invoice":
                return entry.editable;
              case "void":
                return entry.voidable;
              case "unvoid":
                return entry.void_deletable;
              case "reverse":
                return entry.reversible;
              case "unreverse":
                return entry.reverses_transaction !== null;
            }
          });
          const target = candidates[current.pick % Math.max(1, candidates.length)];
          if (!target) continue;
          const responses = {
            edit: () =>
              api.post(`/api/transactions/${target.id}/edit_transaction/`, {
                customer: target.customer,
                code: codeIds[0],
                rate: "1.11",
                quantity: "3",
              }),
            delete: () => api.delete(`/api/transactions/${target.id}/`),
            invoice: () => api.post("/api/transactions/make_invoice/", { ids: [target.id] }),
            void: () => api.post(`/api/transactions/${target.id}/void_transaction/`),
            unvoid: () => api.delete(`/api/transactions/${target.id}/delete_void_transaction/`),
            reverse: () => api.post(`/api/transactions/${target.id}/reversal/`),
            unreverse: () => api.delete(`/api/transactions/${target.id}/delete_reversal/`),
          };
          const response = await responses[current.kind]();
          // Invoicing an entry already on an open invoice is refused; everything else the flags allow must work.
          if (!(current.kind === "invoice" && response.status === 400))
            expect(response.status, response.text).toBeLessThan(300);
        }
        expect(await ledgerMismatches(testApp.db)).toEqual([]);
        const unbalancedPairs = await queryRows(
          testApp.db,
          sql`select t.id from transactions t
              join transactions o on o.client_id = t.client_id and (o.voids_transaction_id = t.id or o.reverses_transaction_id = t.id)
              where t.client_id = ${fixture.a.clientId} and t.ledger_amount + o.ledger_amount <> 0`,
          z.object({ id: dbInt }),
        );
        expect(unbalancedPairs).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});
