import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startSandbox, type Sandbox, type SandboxOptions } from "./bluepay-sandbox.js";
import { DEMO_ACCOUNT } from "./sandbox-accounts.js";
import type { SandboxTransaction } from "./sandbox-transaction.js";
import {
  JUNE_2030,
  query,
  sale,
  seal,
  transaction,
  type TestHashType,
} from "./test-support/protocol-client.js";

// The /sandbox/ controls over HTTP: settle, return, charge back, reverse, NOC, settle everything,
// Trans Notify posts (to a small listener here) and lost answers.

const running: Sandbox[] = [];
const listeners: Server[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
  await Promise.all(listeners.splice(0).map((server) => new Promise((done) => server.close(done))));
});

let clock = JUNE_2030;
async function sandboxWith(options: SandboxOptions = {}): Promise<Sandbox> {
  clock = JUNE_2030;
  const sandbox = await startSandbox({
    now: () => new Date(clock),
    firstTransId: "100000000001",
    ...options,
  });
  running.push(sandbox);
  return sandbox;
}

type Result = { transaction?: SandboxTransaction; transactions: SandboxTransaction[]; error?: string };
async function control(sandbox: Sandbox, path: string, body: unknown = {}) {
  const response = await fetch(`${sandbox.url}/sandbox/${path}`, {
    method: "POST",
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Result };
}

const ACH = { PAYMENT_TYPE: "ACH", PAYMENT_ACCOUNT: "C:123456780:1234567890", DOC_TYPE: "WEB" };
const achSale = (sandbox: Sandbox, amount: string, extra: Record<string, string> = {}) =>
  transaction(sandbox, { TRANS_TYPE: "SALE", AMOUNT: amount, ...ACH, ...extra });
const idOf = (answer: { fields: Map<string, string> }) => answer.fields.get("TRANS_ID") ?? "";

describe("settlement", () => {
  it("settles one sale on a date into the day's batch, and everything due with settle-all", async () => {
    const sandbox = await sandboxWith();
    const first = idOf(await sale(sandbox, "3.00"));
    const second = idOf(await sale(sandbox, "5.00"));
    const declined = idOf(await sale(sandbox, "4.00"));
    const settled = await control(sandbox, `transactions/${first}/settle`, { date: "2030-06-16" });
    expect(settled.status).toBe(200);
    expect(settled.body.transaction).toMatchObject({
      transId: first,
      settleDate: "2030-06-16 23:59:59",
      settlementId: expect.stringMatching(/^\d{12}$/),
    });
    const again = await control(sandbox, `transactions/${first}/settle`, {});
    expect([again.status, again.body.error]).toEqual([
      400,
      `transaction ${first} settled on 2030-06-16 already`,
    ]);
    const all = await control(sandbox, "settle-all", { date: "2030-06-16" });
    expect(all.body.transactions.map((t) => t.transId)).toEqual([second]);
    expect(all.body.transactions[0]?.settlementId).toBe(settled.body.transaction?.settlementId);
    expect(sandbox.transactions().find((t) => t.transId === declined)?.settleDate).toBe("");
    // Defaults to the sandbox's today; a settled sale can no longer be voided.
    clock += 86_400_000;
    const third = idOf(await sale(sandbox, "7.00"));
    expect(sandbox.settle(third).transaction?.settleDate).toBe("2030-06-16 12:00:00");
    const voided = await transaction(sandbox, { TRANS_TYPE: "VOID", MASTER_ID: third });
    expect(voided.fields.get("MESSAGE")).toBe("Cannot VOID a settled transaction.");
  });

  it("answers 404 for an unknown TRANS_ID and 400 for bad input", async () => {
    const sandbox = await sandboxWith();
    const paid = idOf(await sale(sandbox, "3.00"));
    expect((await control(sandbox, "transactions/199999999999/settle")).status).toBe(404);
    const cases: Array<[string, unknown, string]> = [
      [`transactions/${paid}/settle`, { date: "16/06/2030" }, "date must be YYYY-MM-DD"],
      [
        `transactions/${paid}/settle`,
        { date: "2030-06-01" },
        `date 2030-06-01 is before transaction ${paid} was issued`,
      ],
      [`transactions/${paid}/return`, { code: "R01" }, "a return applies to approved ACH sales only"],
      [`transactions/${paid}/chargeback`, { code: 4837 }, "code must be a string"],
      [`transactions/${paid}/noc`, { code: "C09", corrected: "1" }, "code must be a change code C01..C07"],
      ["lose-answers", { count: -1, stqNoMatchMs: 0 }, "count must be a whole number from 0 to 1000000"],
      ["notify", { url: "ftp://example.test/" }, "url must be an absolute http(s) URL"],
    ];
    for (const [path, body, error] of cases)
      expect(await control(sandbox, path, body), path).toEqual({ status: 400, body: { error } });
  });
});

describe("ACH returns and notifications of change", () => {
  it("records a return as its own REJECT record with the R-code in auth_code, settling the sale first", async () => {
    const sandbox = await sandboxWith();
    const paid = idOf(await achSale(sandbox, "45.00", { ORDER_ID: "ord-1" }));
    const returned = await control(sandbox, `transactions/${paid}/return`, {
      code: "R01",
      date: "2030-06-17",
    });
    expect(returned.status).toBe(200);
    expect(returned.body.transaction).toMatchObject({
      origin: "REJECT",
      masterId: paid,
      transType: "VOID",
      paymentType: "ACH",
      status: "1",
      amount: "45.00",
      authCode: "R01",
      message: "R01 Insufficient Funds",
      rejectKind: "return",
      settleDate: "2030-06-17 23:59:59",
    });
    expect(returned.body.transactions[1]).toMatchObject({ transId: paid, settleDate: "2030-06-17 23:59:59" });
    const twice = await control(sandbox, `transactions/${paid}/return`, { code: "R10" });
    expect([twice.status, twice.body.error]).toEqual([400, `transaction ${paid} was returned already`]);
    // Any Rnn is taken; stq still finds the sale by its ORDER_ID.
    const other = idOf(await achSale(sandbox, "47.00"));
    expect(sandbox.returnTransaction(other, "R77").transaction?.message).toBe("R77 Return R77");
    expect((await query(sandbox, { order_id: "ord-1" })).fields.get("id")).toBe(paid);
  });

  it("records a NOC with the change code and the corrected data (memo), moving no money", async () => {
    const sandbox = await sandboxWith();
    const paid = idOf(await achSale(sandbox, "45.00"));
    const noc = await control(sandbox, `transactions/${paid}/noc`, { code: "C01", corrected: "987654321" });
    expect(noc.body.transaction).toMatchObject({
      origin: "REJECT",
      masterId: paid,
      transType: "UPDATE",
      amount: "0.00",
      authCode: "C01",
      memo: "987654321",
      message: "C01 Incorrect DFI Account Number",
      rejectKind: "noc",
      settleDate: "",
    });
  });
});

describe("chargebacks", () => {
  it("charges back a card sale and reverses it, each a REJECT record", async () => {
    const sandbox = await sandboxWith();
    const paid = idOf(await sale(sandbox, "41.00"));
    const cb = await control(sandbox, `transactions/${paid}/chargeback`, { reason: "Fraud, card absent" });
    expect(cb.body.transaction).toMatchObject({
      origin: "REJECT",
      masterId: paid,
      transType: "REFUND",
      amount: "41.00",
      authCode: "4837",
      message: "Chargeback 4837: Fraud, card absent",
      rejectKind: "chargeback",
    });
    expect((await control(sandbox, `transactions/${paid}/chargeback`)).body.error).toBe(
      `transaction ${paid} is charged back already`,
    );
    const reversal = await control(
      sandbox,
      `transactions/${cb.body.transaction?.transId}/chargeback-reversal`,
    );
    expect(reversal.body.transaction).toMatchObject({
      origin: "REJECT",
      masterId: paid,
      transType: "SALE",
      amount: "41.00",
      rejectKind: "chargeback-reversal",
      message: "Chargeback reversal 4837",
    });
    expect((await control(sandbox, `transactions/${paid}/chargeback-reversal`)).body.error).toBe(
      `transaction ${paid} has no open chargeback`,
    );
    const listed = (await (await fetch(`${sandbox.url}/sandbox/transactions`)).json()) as {
      transactions: SandboxTransaction[];
    };
    expect(listed.transactions.map((t) => [t.origin, t.rejectKind, t.masterId])).toEqual([
      ["bp20post", "", ""],
      ["REJECT", "chargeback", paid],
      ["REJECT", "chargeback-reversal", paid],
    ]);
  });
});

describe("Trans Notify", () => {
  async function listener() {
    const posts: Array<Map<string, string>> = [];
    let failFirst = 1;
    const server = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        // The first post fails: the sandbox tries again.
        if (failFirst-- > 0) return response.writeHead(503).end();
        posts.push(new Map(new URLSearchParams(body)));
        response.writeHead(200).end("ok");
      });
    });
    listeners.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`, posts };
  }

  it("posts each new transaction and each settlement, return and NOC, with a BP_STAMP the SDK samples verify", async () => {
    const sandbox = await sandboxWith();
    const { url, posts } = await listener();
    expect((await control(sandbox, "notify", { url })).body).toEqual({ url });
    const paid = idOf(await achSale(sandbox, "45.00", { ORDER_ID: "n-1" }));
    await control(sandbox, `transactions/${paid}/settle`, { date: "2030-06-16" });
    await control(sandbox, `transactions/${paid}/return`, { code: "R01", date: "2030-06-18" });
    await control(sandbox, `transactions/${paid}/noc`, { code: "C03", corrected: "123456780 55555" });
    await vi.waitFor(() => expect(posts).toHaveLength(4), { timeout: 5_000 });
    expect(
      posts.map((p) => [p.get("notify_type"), p.get("trans_type"), p.get("origin"), p.get("auth_code")]),
    ).toEqual([
      ["transaction", "SALE", "bp20post", expect.stringMatching(/^[0-9A-F]{6}$/)],
      ["settle", "SALE", "bp20post", expect.stringMatching(/^[0-9A-F]{6}$/)],
      ["transaction", "VOID", "REJECT", "R01"],
      ["transaction", "UPDATE", "REJECT", "C03"],
    ]);
    expect(Object.fromEntries(posts[2] ?? [])).toMatchObject({
      master_id: paid,
      amount: "45.00",
      trans_status: "1",
      payment_type: "ACH",
      card_account: "C:123456780:xxxxxx7890",
      message: "R01 Insufficient Funds",
      issue_date: "2030-06-18 23:59:59",
      mode: "TEST",
      BP_STAMP_DEF:
        "trans_id trans_status trans_type amount batch_id batch_status total_count total_amount bupload_id rebill_id reb_amount status",
      TPS_HASH_TYPE: "HMAC_SHA512",
    });
    expect(posts[1]?.get("batch_id")).toMatch(/^\d{12}$/);
    expect(posts[3]?.get("memo")).toBe("123456780 55555");
    for (const post of posts) {
      // As the SDKs' Transaction_Notification samples check it.
      const names = (post.get("BP_STAMP_DEF") ?? "").split(" ");
      const expected = seal(
        DEMO_ACCOUNT.secretKey,
        Object.fromEntries(post),
        names,
        post.get("TPS_HASH_TYPE") as TestHashType,
      );
      expect(post.get("BP_STAMP")).toBe(expected.toUpperCase());
    }
    // null: no more posts.
    await control(sandbox, "notify", { url: null });
    await sale(sandbox, "3.00");
    await sandbox.notifyIdle();
    expect(posts).toHaveLength(4);
  });
});

describe("lost answers", () => {
  it("charges but cuts the next calls' connections, and stq finds them only after the window", async () => {
    const sandbox = await sandboxWith();
    expect((await control(sandbox, "lose-answers", { count: 1, stqNoMatchMs: 60_000 })).body).toEqual({
      count: 1,
      stqNoMatchMs: 60_000,
    });
    const lost = await sale(sandbox, "45.00", { ORDER_ID: "lost-1" }).then(
      () => "answered",
      (error: unknown) => (error instanceof TypeError ? "cut" : "other"),
    );
    expect(lost).toBe("cut");
    expect(sandbox.transactions()).toMatchObject([{ orderId: "lost-1", status: "1", delivery: "dropped" }]);
    expect(Object.fromEntries((await query(sandbox, { order_id: "lost-1" })).fields)).toEqual({
      MESSAGE: "No transactions found",
    });
    // The next call is answered as usual.
    expect((await sale(sandbox, "47.00", { ORDER_ID: "kept-1" })).fields.get("STATUS")).toBe("1");
    clock += 60_001;
    expect((await query(sandbox, { order_id: "lost-1" })).fields.get("amount")).toBe("45.00");
  });
});
