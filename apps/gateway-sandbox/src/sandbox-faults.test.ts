import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startSandbox, type Sandbox, type SandboxOptions } from "./bluepay-sandbox.js";
import { createFaultPlan } from "./fault-plan.js";
import { CARD, JUNE_2030, query, sale, transaction } from "./test-support/protocol-client.js";

const running: Sandbox[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function sandboxWith(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ now: () => new Date(JUNE_2030), ...options });
  running.push(sandbox);
  return sandbox;
}

/** The error a request failed with (or "answered"); handled from the start, so never unhandled. */
async function failure(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => "answered",
    (error: unknown) => error,
  );
}

describe("injected faults", () => {
  it("drops the answer of a sale it still records: the connection closes without a byte", async () => {
    const sandbox = await sandboxWith({ faults: { dropRate: 1 } });
    expect(await failure(sale(sandbox, "3.00", { ORDER_ID: "lost-1" }))).toBeInstanceOf(TypeError);
    expect(sandbox.transactions()).toMatchObject([{ orderId: "lost-1", status: "1", delivery: "dropped" }]);
    sandbox.setFaults({ dropRate: 0 });
    expect((await query(sandbox, { order_id: "lost-1" })).fields.get("status")).toBe("1");
  });

  it("holds an answer forever (the client gives up) and answers late with latency", async () => {
    const sandbox = await sandboxWith({ faults: { hangRate: 1 } });
    // Each held sale is recorded before its answer is held; wait for that before the next step.
    const held = failure(sale(sandbox, "5.00", { ORDER_ID: "held-1" }));
    await vi.waitFor(() => expect(sandbox.transactions()).toHaveLength(1));
    const alsoHeld = failure(
      transaction(sandbox, { AMOUNT: "7.00", PAYMENT_ACCOUNT: CARD, CARD_EXPIRE: "1299" }),
    );
    await vi.waitFor(() => expect(sandbox.transactions()).toHaveLength(2));
    sandbox.setFaults({ hangRate: 0, latencyMs: 300 });
    const started = performance.now();
    const late = await sale(sandbox, "9.00");
    expect(late.fields.get("STATUS")).toBe("1");
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(sandbox.transactions().map((t) => [t.amount, t.delivery])).toEqual([
      ["5.00", "held"],
      ["7.00", "held"],
      ["9.00", "sent"],
    ]);
    // Closing ends the held connections.
    await sandbox.close();
    expect(await held).toBeInstanceOf(TypeError);
    expect(await alsoHeld).toBeInstanceOf(TypeError);
  });

  it("replays the same drops for the same seed", async () => {
    const pattern = (seed: number) => {
      const plan = createFaultPlan({ dropRate: 0.3, hangRate: 0.2, seed });
      return Array.from({ length: 40 }, () => plan.decide());
    };
    expect(pattern(42)).toEqual(pattern(42));
    expect(pattern(42)).not.toEqual(pattern(43));
    expect(new Set(pattern(42))).toEqual(new Set(["answer", "drop", "hang"]));
    const plan = createFaultPlan({ dropRate: 0.5, seed: 7 });
    const first = Array.from({ length: 10 }, () => plan.decide());
    plan.set({ seed: 7 });
    expect(Array.from({ length: 10 }, () => plan.decide())).toEqual(first);
  });

  it("refuses impossible fault settings", () => {
    expect(() => createFaultPlan({ dropRate: 1.5 })).toThrow(/dropRate/);
    expect(() => createFaultPlan({ dropRate: 0.6, hangRate: 0.6 })).toThrow(/at most 1/);
    expect(() => createFaultPlan({ latencyMs: -1 })).toThrow(/latencyMs/);
  });
});

describe("the /sandbox/ control surface", () => {
  it("lists the record as JSON, sets faults and registers accounts over HTTP", async () => {
    const sandbox = await sandboxWith({ demoAccount: false });
    const account = { accountId: "100000000555", secretKey: "REGISTERED-AT-RUNTIME" };
    expect((await sale(sandbox, "3.00")).fields.get("MESSAGE")).toBe("Unable to locate account");
    const added = await fetch(`${sandbox.url}/sandbox/accounts`, {
      method: "POST",
      body: JSON.stringify(account),
    });
    expect(added.status).toBe(204);
    const answer = await sale(sandbox, "3.00", { ACCOUNT_ID: account.accountId }, account.secretKey);
    expect(answer.fields.get("STATUS")).toBe("1");

    const listed = (await (await fetch(`${sandbox.url}/sandbox/transactions`)).json()) as {
      transactions: unknown[];
    };
    expect(listed.transactions).toEqual(sandbox.transactions());

    const set = await fetch(`${sandbox.url}/sandbox/faults`, {
      method: "POST",
      body: JSON.stringify({ latencyMs: 10, seed: 9 }),
    });
    expect(await set.json()).toEqual({ latencyMs: 10, dropRate: 0, hangRate: 0, seed: 9, stqFault: "none" });
    const bad = await fetch(`${sandbox.url}/sandbox/faults`, { method: "POST", body: '{"dropRate":"all"}' });
    expect([bad.status, await bad.json()]).toEqual([400, { error: "dropRate must be a number" }]);
    expect((await fetch(`${sandbox.url}/nowhere`)).status).toBe(404);
  });
});

describe("what the sandbox keeps", () => {
  it("never keeps a card number or CVV, in memory or in its state file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gateway-sandbox-"));
    dirs.push(dir);
    const stateFile = path.join(dir, "state.json");
    const sandbox = await sandboxWith({ stateFile });
    await sale(sandbox, "3.00", { CARD_CVV2: "9876" });
    await transaction(sandbox, {
      PAYMENT_TYPE: "ACH",
      PAYMENT_ACCOUNT: "C:123456780:55512345678",
      AMOUNT: "1.00",
    });
    const kept = [JSON.stringify(sandbox.transactions()), readFileSync(stateFile, "utf8")];
    for (const text of kept) {
      expect(text).not.toContain(CARD);
      expect(text).not.toContain("55512345678");
      expect(text).not.toMatch(/cvv2?":"9876/i);
      expect(text).toContain("xxxxxxxxxxxx1111");
    }
  });

  it("keeps its record across a restart with a state file, so a stored MASTER_ID still works", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "gateway-sandbox-"));
    dirs.push(dir);
    const stateFile = path.join(dir, "state.json");
    const first = await sandboxWith({ stateFile, firstTransId: "100000000100" });
    const stored = (await sale(first, "3.00")).fields.get("TRANS_ID") ?? "";
    await first.close();
    const second = await sandboxWith({ stateFile });
    const again = await transaction(second, { AMOUNT: "5.00", MASTER_ID: stored });
    expect(Object.fromEntries(again.fields)).toMatchObject({
      TRANS_ID: "100000000101",
      STATUS: "1",
      PAYMENT_ACCOUNT_MASK: "xxxxxxxxxxxx1111",
    });
    expect(second.transactions()).toHaveLength(2);
  });
});
