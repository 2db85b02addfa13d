import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows } from "../../db/query-rows.js";
import { z } from "zod";
import { cardPayment, customerWithStatement, makePayment, storedCard } from "../payment-fixture.js";
import { waitForProductionRun } from "../production-app.js";
import { pollUntil } from "../poll-until.js";
import type { ApiResponse } from "../test-app.js";
import { idOf, ok, type WalkStep, type WalkWorld } from "./walk-world.js";

// The audit walk's steps for payments, the gateway, jobs, production runs and their pools.

const pay = (world: WalkWorld, body: unknown, token?: string): Promise<ApiResponse> =>
  makePayment(world.testApp, body, randomUUID(), token);

/** A customer of client a owing `balance` on a statement, with its pay token. */
const owing = (world: WalkWorld, balance: string) =>
  customerWithStatement(world.testApp, world.clientId, balance);

/** The gateway's TRANS_ID of the customer's newest approved sale. */
async function saleTransId(world: WalkWorld, customerId: number): Promise<string> {
  const [row] = await queryRows(
    world.testApp.db,
    sql`
    select gateway_trans_id from payment_attempts
    where client_id = ${world.clientId} and customer_id = ${customerId} and kind = 'sale' and status = 'approved'
    order by id desc limit 1`,
    z.object({ gateway_trans_id: z.string() }),
  );
  return row?.gateway_trans_id ?? "";
}

const ACH = { paymentMethod: "check", checkRoutingNum: "123456780", checkAccountNum: "99887766" };

export const paymentSteps: WalkStep[] = [
  {
    route: "POST /api/payments/make-payment/customer/",
    action: "ledger_entry.post",
    call: async (world) => {
      const { token, statementId, customerId } = await owing(world, "40.00");
      world.made.statement = statementId;
      const answer = await pay(world, cardPayment(token, "15.00"));
      world.texts.saleTransId = await saleTransId(world, customerId);
      return answer;
    },
  },
  {
    route: "POST /api/customers/{id}/payment-link/",
    action: "payment_link.issue",
    call: async (world) =>
      world.staff.post(`/api/customers/${(await owing(world, "12.00")).customerId}/payment-link/`),
  },
  {
    route: "DELETE /api/customers/{id}/delete-payment-info/",
    action: "payment_method.delete",
    call: async (world) => {
      const { customerId } = await owing(world, "30.00");
      ok(
        await pay(world, { ...storedCard(), customer_id: customerId }, world.tenants.a.staffToken),
        "store card",
      );
      return world.staff.delete(`/api/customers/${customerId}/delete-payment-info/`);
    },
  },
  {
    route: "POST /api/payment-attempts/settle/",
    action: "ledger_entry.post",
    call: async (world) => {
      const { token } = await owing(world, "25.00");
      world.gw.next({ kind: "lose" });
      ok(await pay(world, cardPayment(token, "25.00")), "lost payment");
      return world.owner.post("/api/payment-attempts/settle/");
    },
  },
  {
    route: "POST /api/payment-attempts/{id}/resolve/",
    action: "payment_attempt.resolve",
    call: async (world) => {
      const { token, customerId } = await owing(world, "26.00");
      world.gw.next({ kind: "lose" });
      world.gw.stq({ kind: "no-match" });
      ok(await pay(world, cardPayment(token, "26.00")), "lost payment");
      world.gw.stq({ kind: "proxy" });
      const attempts = await world.owner.get("/api/payment-attempts/", { customer_id: customerId });
      const [attempt] = z
        .object({ results: z.array(z.object({ id: z.number() })) })
        .parse(attempts.body).results;
      return world.owner.post(`/api/payment-attempts/${attempt?.id ?? 0}/resolve/`, {
        outcome: "not_charged",
        reason: "Walk: the gateway shows no such sale.",
      });
    },
  },
  {
    route: "POST /api/work-queue/handled/",
    action: "work_item.handled",
    call: async (world) => {
      const { token, customerId } = await owing(world, "28.00");
      // An even dollar amount: the sandbox declines it.
      ok(await pay(world, cardPayment(token, "28.00")), "declined payment");
      const attempts = await world.owner.get("/api/payment-attempts/", { customer_id: customerId });
      const [attempt] = z
        .object({ results: z.array(z.object({ id: z.number() })) })
        .parse(attempts.body).results;
      return world.owner.post("/api/work-queue/handled/", {
        kind: "payment_declined",
        key: String(attempt?.id ?? 0),
        note: "Walk: called the customer.",
      });
    },
  },
  {
    route: "POST /api/customers/make-bulk-payments/",
    action: "job.start",
    call: async (world) => {
      const { customerId } = await owing(world, "18.00");
      ok(
        await pay(
          world,
          { ...storedCard({ autoPay: true }), customer_id: customerId },
          world.tenants.a.staffToken,
        ),
        "store card",
      );
      return world.staff.post("/api/customers/make-bulk-payments/", { ids: [customerId] });
    },
  },
  {
    route: "POST /api/gateway/events/",
    action: "gateway_event.record",
    call: (world) =>
      world.admin.post(
        "/api/gateway/events/",
        {
          kind: "charged_back",
          gateway_trans_id: "9900000001",
          original_trans_id: world.texts.saleTransId,
          code: "4837",
          reason: "No cardholder authorization",
        },
        { client_id: world.clientId },
      ),
  },
  {
    route: "POST /api/gateway/notify/{clientNo}/",
    action: "gateway_event.record",
    byJob: true,
    call: async (world) => {
      const { token, customerId } = await owing(world, "31.00");
      ok(await pay(world, { ...ACH, statementId: token, amount: "31.00" }), "ach payment");
      const returned = world.sandbox.returnTransaction(await saleTransId(world, customerId), "R01");
      const client = ok(await world.admin.get(`/api/clients/${world.clientId}/`), "client").body as {
        client_no: number;
      };
      return world.anonymous.request("POST", `/api/gateway/notify/${client.client_no}/`, {
        rawBody: `trans_id=${returned.transaction?.transId ?? ""}&trans_status=1&trans_type=SALE`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    },
  },
  {
    route: "POST /api/jobs/ledger-check/",
    action: "job.start",
    noValues: "starting a check changes no record",
    call: (world) => world.owner.post("/api/jobs/ledger-check/"),
  },
  {
    route: "POST /api/gateway/reconcile/",
    action: "job.start",
    noValues: "starting a reconciliation changes no record",
    call: (world) =>
      world.admin.post("/api/gateway/reconcile/", undefined, {
        client_id: world.clientId,
        date: world.texts.runDate,
      }),
  },
];

async function poolNames(world: WalkWorld): Promise<string[]> {
  const pools = await world.admin.get("/api/pools/", { cycle: world.made.cycle, client_id: world.clientId });
  const page = z
    .object({ results: z.array(z.object({ pool_name: z.string(), state: z.string() })) })
    .parse(pools.body);
  return page.results.filter((pool) => pool.state === "ready").map((pool) => pool.pool_name);
}

export const productionSteps: WalkStep[] = [
  {
    route: "POST /api/dailyproduction/cycle/{n}/",
    action: "production_run.start",
    call: async (world) => {
      const started = await world.admin.post(`/api/dailyproduction/cycle/${world.made.cycle}/`, {
        run_date: world.texts.runDate,
        client_ids: [world.clientId],
      });
      world.made.run = idOf(ok(started, "run"));
      const run = await waitForProductionRun(world.admin, world.made.run);
      if (run.status !== "done") throw new Error(`run ${run.status}`);
      return started;
    },
  },
  {
    route: "POST /api/clients/{id}/closed-period/reopen/",
    action: "closed_period.reopen",
    call: (world) =>
      world.admin.post(`/api/clients/${world.clientId}/closed-period/reopen/`, {
        reason: "Walk: a late payment",
      }),
  },
  {
    route: "POST /api/clients/{id}/closed-period/close/",
    action: "closed_period.close",
    call: (world) => world.admin.post(`/api/clients/${world.clientId}/closed-period/close/`, {}),
  },
  {
    route: "DELETE /api/pools/{name}/",
    action: "pool.delete",
    call: async (world) => {
      const names = await pollUntil(
        () => poolNames(world),
        (list) => list.length > 0,
        30_000,
      );
      return world.admin.delete(`/api/pools/${names[0] ?? ""}/`);
    },
  },
  {
    route: "POST /api/productionruns/{id}/rebuild_pools/",
    action: "pool.rebuild",
    call: (world) => world.admin.post(`/api/productionruns/${world.made.run ?? 0}/rebuild_pools/`),
  },
  {
    route: "POST /api/productionruns/{id}/undo/",
    action: "production_run.undo_requested",
    call: async (world) => {
      await pollUntil(
        () => poolNames(world),
        (list) => list.length > 0,
        30_000,
      );
      return world.admin.post(`/api/productionruns/${world.made.run ?? 0}/undo/`, undefined, {
        client_id: world.clientId,
      });
    },
  },
];
