import { startSandbox, type Sandbox } from "@cyclebill/gateway-sandbox";
import { toAmount } from "@cyclebill/domain";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../db/query-rows.js";
import { dbDecimal, dbInt, dbText } from "../db/row-schemas.js";
import { codes, customers } from "../db/tables.js";
import { readJobRun } from "../modules/jobs/job-runs.js";
import { runDoctor } from "../modules/ledger/doctor.js";
import { NOT_SENT_MESSAGE } from "../modules/payments/settle-attempts.js";
import { startBulkCardRun } from "../modules/payments/start-card-run.js";
import {
  createOwnedClient,
  doneChunks,
  enqueueSteps,
  startKillTestBed,
  type KillTestBed,
} from "../test-support/kill-test-bed.js";
import { postInOneTransaction, serviceCharge } from "../test-support/ledger-rows.js";
import { luhnCard, storeCardOnFile, gatewayAccountFields } from "../test-support/stored-cards.js";
import { startQueueOnlyJobs } from "../test-support/queue-only-jobs.js";
import { waitFor } from "../test-support/worker-process.js";

// A Process CC run of 200 customers against the gateway sandbox, which drops 10% of its answers
// (the charge happens, the answer is lost). The worker process is killed with SIGKILL in the middle
// of the run, while answers are slow, so attempts are left pending with the gateway having charged
// them; a second worker finishes the run. Every customer is charged exactly once, the ledger's card
// payments are the sandbox's approved sales, and the books balance. PostgreSQL only (several
// processes on one database), like the other kill tests.

const CUSTOMERS = 200;
const CHUNKS = 8; // 25 customers a chunk
const EXPIRE_SECONDS = 10;
const SECRETS_KEY = "worker-kill-test"; // what startWorkerProcess gives the workers
const ACCOUNT = { accountId: "100000004444", secretKey: "CARDRUNKILLTESTSECRETKEY00000001" };

/** A distinct Luhn-valid Visa number per customer: the sandbox scrubs duplicates by card and amount. */
function cardNumber(index: number): string {
  return luhnCard("4", index + 1);
}

/** Odd dollars approve and even decline in the sandbox's TEST mode; amounts vary by customer. */
function balanceOf(index: number): string {
  return toAmount(`${10 + (index % 9)}.${String((index * 7) % 100).padStart(2, "0")}`);
}

describe.runIf(process.env.TEST_DB === "postgres")("a card run killed with kill -9 mid-run", () => {
  let bed: KillTestBed;
  let sandbox: Sandbox;
  const startWorker = () =>
    bed.startWorker({
      expireSeconds: EXPIRE_SECONDS,
      env: { BLUEPAY_URL: sandbox.bp20postUrl, BLUEPAY_MODE: "TEST", BLUEPAY_TIMEOUT_SECONDS: "5" },
    });

  beforeAll(async () => {
    sandbox = await startSandbox({ accounts: [ACCOUNT], demoAccount: false });
    bed = await startKillTestBed({
      name: "card-run-kill",
      // The chunks are queued from here: with the workers' short expiry, so a killed one is retried soon.
      jobs: (database, dataDir) =>
        startQueueOnlyJobs(database, dataDir, {
          expireSeconds: EXPIRE_SECONDS,
          gateway: {
            url: sandbox.bp20postUrl,
            mode: "TEST",
            timeoutMs: 5_000,
            secretsKey: SECRETS_KEY,
            installationId: "cardrunkill",
          },
        }),
      closeAlso: () => sandbox.close(),
    });
  });
  afterAll(async () => bed?.close());

  it(
    "charges every customer exactly once; the ledger equals the gateway's record",
    { timeout: 240_000 },
    async () => {
      const { db } = bed.database;
      const { client, tenant } = await createOwnedClient(
        db,
        {
          clientNo: 4444,
          clientName: "Card run kill test",
          ...gatewayAccountFields(SECRETS_KEY, ACCOUNT),
        },
        "owner@card-kill.example",
      );
      const [code] = await db
        .insert(codes)
        .values({ clientId: client.id, code: 100, description: "Service", codeType: "charge" })
        .returning({ id: codes.id });
      if (!code) throw new Error("code not created");
      const rows = await db
        .insert(customers)
        .values(
          Array.from({ length: CUSTOMERS }, (_, index) => ({
            clientId: client.id,
            customerNo: index + 1,
            customerName: `Card customer ${index + 1}`,
            firstName: "Card",
            lastName: `Customer ${index + 1}`,
          })),
        )
        .returning({ id: customers.id, no: customers.customerNo });
      const byNo = new Map(rows.map((row) => [row.no, row.id]));
      const ids = rows.map((row) => row.id).sort((a, b) => a - b);
      await postInOneTransaction(
        db,
        client.id,
        Array.from({ length: CUSTOMERS }, (_, index) =>
          serviceCharge(byNo.get(index + 1) ?? 0, code.id, balanceOf(index), "2026-01-10"),
        ),
      );
      // Each customer's card stored as the staff form stores one: a $0.00 AUTH, its TRANS_ID the token.
      for (let index = 0; index < CUSTOMERS; index++)
        await storeCardOnFile(
          db,
          { url: sandbox.bp20postUrl, account: ACCOUNT },
          { clientId: client.id, customerId: byNo.get(index + 1) ?? 0 },
          cardNumber(index),
          { payer: { name1: "Card", name2: `Customer ${index + 1}` } },
        );

      // Slow answers while the first worker runs (so attempts are in flight when it dies), and one in
      // ten answers lost throughout.
      sandbox.setFaults({ dropRate: 0.1, latencyMs: 150, seed: 16 });
      const started = await startBulkCardRun(db, tenant, ids, enqueueSteps(bed.jobs, "card-run"));
      const runId = started.job.id;
      const key = { clientId: client.id, runId };
      const recordedChunks = async () => (await doneChunks(db, key)).length;
      const pendingAttempts = async () => {
        const [row] = await queryRows(
          db,
          sql`select count(*)::int as pending from payment_attempts
            where client_id = ${client.id} and card_run_id = ${runId} and status = 'pending'`,
          z.object({ pending: dbInt }),
        );
        return row?.pending ?? 0;
      };

      const first = startWorker();
      await waitFor(
        "the first worker to be mid-run with attempts in flight",
        async () => (await recordedChunks()) >= 2 && (await pendingAttempts()) > 0,
        first,
      );
      first.child.kill("SIGKILL");
      expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
      const midway = await readJobRun(db, key);
      expect(midway?.status).toBe("running");
      expect(midway?.done).toBeLessThan(CUSTOMERS);

      sandbox.setFaults({ latencyMs: 0 });
      const second = startWorker();
      await waitFor(
        "the run to finish",
        async () => ["succeeded", "failed"].includes((await readJobRun(db, key))?.status ?? ""),
        second,
      );
      const finished = await readJobRun(db, key);
      expect(finished).toMatchObject({ status: "succeeded", total: CUSTOMERS, done: CUSTOMERS });
      expect(await recordedChunks()).toBe(CHUNKS);

      // Each customer's last attempt: none left pending. Odd dollars approved, even declined, or
      // unknown: the worker died in its call, so nobody can tell whether it left; the gateway shows
      // at most one sale for it, and the customer is not charged again (it waits for lookups or a person).
      const attempts = await queryRows(
        db,
        sql`select distinct on (a.customer_id) a.id::text, a.customer_id::text, a.status, a.amount::text
            from payment_attempts a where a.client_id = ${client.id} and a.card_run_id = ${runId}
            order by a.customer_id, a.id desc`,
        z.object({ id: dbText, customer_id: dbText, status: dbText, amount: dbDecimal }),
      );
      expect(attempts.map((attempt) => Number(attempt.customer_id))).toEqual(ids);
      const sales = sandbox.transactions().filter((transaction) => transaction.transType === "SALE");
      const attemptOf = (orderId: string) => orderId.slice(orderId.lastIndexOf("-") + 1);
      const earlier = await queryRows(
        db,
        sql`select id::text, status, message from payment_attempts
            where client_id = ${client.id} and card_run_id = ${runId}
              and id <> all(${`{${attempts.map((attempt) => attempt.id).join(",")}}`}::bigint[])`,
        z.object({ id: dbText, status: dbText, message: dbText }),
      );
      // Another round follows only an attempt that provably never left.
      for (const attempt of earlier) {
        expect(attempt).toMatchObject({ status: "error", message: NOT_SENT_MESSAGE });
        expect(sales.filter((sale) => attemptOf(sale.orderId) === attempt.id)).toEqual([]);
      }
      const unknown = new Set(attempts.filter((a) => a.status === "unknown").map((a) => a.id));
      // Its request may or may not have reached the gateway before the kill: at most one sale.
      for (const id of unknown)
        expect(sales.filter((sale) => attemptOf(sale.orderId) === id).length).toBeLessThanOrEqual(1);
      expect(attempts.map((attempt) => [attempt.amount, attempt.status])).toEqual(
        attempts.map((attempt, index) => {
          const amount = balanceOf(index);
          if (unknown.has(attempt.id)) return [amount, "unknown"];
          return [amount, Math.trunc(Number(amount)) % 2 === 1 ? "approved" : "declined"];
        }),
      );

      // The gateway's record: at most one sale per customer, its last attempt's (ORDER_ID ends with its id).
      // (An unknown attempt's sale, if its request got there, is for the lookups or a person.)
      const answered = sales.filter((sale) => !unknown.has(attemptOf(sale.orderId)));
      expect(answered.map((sale) => attemptOf(sale.orderId)).sort()).toEqual(
        attempts
          .filter((attempt) => !unknown.has(attempt.id))
          .map((attempt) => attempt.id)
          .sort(),
      );
      expect(sales.some((sale) => sale.delivery === "dropped")).toBe(true);
      // The ledger's card payments are the gateway's approved sales, transaction for transaction.
      const payments = await queryRows(
        db,
        sql`select gateway_trans_id, abs(amount)::text as amount from transactions
          where client_id = ${client.id} and gateway_trans_id is not null order by gateway_trans_id`,
        z.object({ gateway_trans_id: dbText, amount: dbDecimal }),
      );
      expect(payments).toEqual(
        answered
          .filter((sale) => sale.status === "1")
          .map((sale) => ({ gateway_trans_id: sale.transId, amount: sale.amount }))
          .sort((a, b) => a.gateway_trans_id.localeCompare(b.gateway_trans_id)),
      );
      // The doctor: every balance equals its ledger.
      expect(await runDoctor(db, 4444)).toMatchObject({
        kind: "checked",
        customersChecked: CUSTOMERS,
        mismatches: [],
      });
      // Approved customers owe nothing now; declined ones still owe their balance.
      const balances = await queryRows(
        db,
        sql`select total_balance::text from customers where client_id = ${client.id} order by id`,
        z.object({ total_balance: dbDecimal }),
      );
      expect(balances.map((row) => row.total_balance)).toEqual(
        Array.from({ length: CUSTOMERS }, (_, index) =>
          Math.trunc(Number(balanceOf(index))) % 2 === 1 && !unknown.has(attempts[index]?.id ?? "")
            ? "0.00"
            : balanceOf(index),
        ),
      );

      // pg-boss's record: the killed worker's chunk was retried after it expired.
      const retried = await queryRows(
        db,
        sql`select coalesce(sum(retry_count), 0)::int as retries from pgboss.job where name = 'card-run'`,
        z.object({ retries: dbInt }),
      );
      expect(retried[0]?.retries).toBeGreaterThanOrEqual(1);

      second.child.kill("SIGTERM");
      expect(await second.exited).toEqual({ code: 0, signal: null });
    },
  );
});
