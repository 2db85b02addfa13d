import { beforeAll, describe, expect, it } from "vitest";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import {
  addRaceCustomers,
  charge,
  fixture,
  staff,
  testApp,
  useRaceApp,
} from "../../test-support/race-app.js";

// Edits that move entries between the same two customers in opposite directions, at the same
// time. Locking the old customer and then the new one deadlocked on PostgreSQL (a 500 for the
// loser); the ledger writer locks every customer involved in id order, and retries a deadlock.

let x: number;
let y: number;

useRaceApp();
beforeAll(async () => {
  [x, y] = (await addRaceCustomers([
    [701, "Crossing X"],
    [702, "Crossing Y"],
  ])) as [number, number];
});

describe("concurrent edits across two customers", () => {
  it("never answers 5xx and keeps every balance equal to its ledger", { timeout: 120_000 }, async () => {
    const post = async (customer: number) => {
      const response = await staff.post("/api/transactions/", {
        customer,
        code: charge,
        description: "Crossing",
        rate: String(customer === x ? 10 : 20),
        force: true,
      });
      expect(response.status, response.text).toBe(201);
      return (response.body as { id: number }).id;
    };
    const pairs = await Promise.all(
      Array.from({ length: 40 }, async () => ({ fromX: await post(x), fromY: await post(y) })),
    );
    const move = (id: number, customer: number) =>
      staff.put(`/api/transactions/${id}/`, { customer, code: charge, description: "Moved", rate: "15" });
    const answers = await Promise.all(pairs.flatMap(({ fromX, fromY }) => [move(fromX, y), move(fromY, x)]));
    expect(answers.filter((answer) => answer.status >= 500).map((answer) => answer.text)).toEqual([]);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(await ledgerMismatches(testApp.db, { clientId: fixture.a.clientId })).toEqual([]);
    const balance = async (id: number) =>
      ((await staff.get(`/api/customers/${id}/`)).body as { balance: string }).balance;
    // Every entry now costs 15.00, and each customer holds 40 of them.
    expect([await balance(x), await balance(y)]).toEqual(["600.00", "600.00"]);
  });

  it("mass updates moving entries both ways at once never answer 5xx", { timeout: 120_000 }, async () => {
    const post = async (customer: number) => {
      const response = await staff.post("/api/transactions/", {
        customer,
        code: charge,
        description: "Mass crossing",
        rate: "5",
        force: true,
      });
      expect(response.status, response.text).toBe(201);
      return (response.body as { id: number }).id;
    };
    const batches = await Promise.all(
      Array.from({ length: 30 }, async () => ({
        fromX: [await post(x), await post(x)],
        fromY: [await post(y), await post(y)],
      })),
    );
    const move = (ids: number[], customer: number) =>
      staff.post("/api/transactions/mass_update/", { ids, changes: { customer } });
    const answers = await Promise.all(
      batches.flatMap(({ fromX, fromY }) => [move(fromX, y), move(fromY, x)]),
    );
    expect(answers.filter((answer) => answer.status >= 500).map((answer) => answer.text)).toEqual([]);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(await ledgerMismatches(testApp.db, { clientId: fixture.a.clientId })).toEqual([]);
  });
});
