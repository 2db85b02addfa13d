import {
  createClient,
  createCode,
  createCustomer,
  postEntry,
  type ApiSession,
  type ClientFixture,
  type CodeFixture,
  type CustomerFixture,
} from "./api.js";

// The small ledger the transaction screens are tried on: one client, a charge code and a payment
// code, and two customers.

export type LedgerWorld = {
  client: ClientFixture;
  /** 101 Lawn mowing, a charge. */
  mowing: CodeFixture;
  /** 900 Check payment. */
  payment: CodeFixture;
  alice: CustomerFixture;
  bob: CustomerFixture;
  /** Posts an entry of `who`'s dated 2026-04-01. */
  post: (who: CustomerFixture, code: number, description: string, rate: string) => Promise<{ id: number }>;
};

export async function makeLedgerWorld(admin: ApiSession, name: string): Promise<LedgerWorld> {
  const client = await createClient(admin, name);
  const mowing = await createCode(admin, client.id, {
    code: 101,
    description: "Lawn mowing",
    code_type: "charge",
  });
  const payment = await createCode(admin, client.id, {
    code: 900,
    description: "Check payment",
    code_type: "payment",
  });
  const customer = (first: string, last: string) =>
    createCustomer(admin, client.id, { first_name: first, last_name: last });
  const alice = await customer("Alice", "Arbor");
  const bob = await customer("Bob", "Birch");
  const post = (who: CustomerFixture, code: number, description: string, rate: string) =>
    postEntry(admin, client.id, { customer: who.id, code, description, rate, serviceDate: "2026-04-01" });
  return { client, mowing, payment, alice, bob, post };
}
