import type { Cluster } from "./soak-processes.js";
import type { SoakClient } from "./soak-client.js";
import type { Operation } from "./soak-plan.js";

// The operations of a sequence, through the real HTTP API as the screens send them. A request whose
// API process died answers nothing (a network error): the soak then does what a user would, a
// retry with the same Idempotency-Key for a payment or a production start, a re-read otherwise.

export type Answer = { status: number; body: unknown } | { status: "lost" };

export type SequenceContext = {
  cluster: Cluster;
  client: SoakClient;
  adminToken: string;
  key: string;
  faults: { apiKills: number; workerKills: number; lostAnswers: number };
  /** What the sandbox was told to do after its first answers: lost answers, returns, chargebacks. */
  gateway: { lost: number; returns: number; chargebacks: number; reversals: number };
  /** Answers by operation and status, e.g. "charge 201": to see the operations really happen. */
  answers: Map<string, number>;
  /** Every 5xx answer of this sequence: a bug whatever the faults (a killed process answers nothing). */
  serverErrors: string[];
};

type Entry = {
  id: number;
  customer: number;
  code: number;
  code_type: string;
  amount: string;
  rate: string;
  quantity: string;
  gateway_trans_id: string | null;
  voided: boolean;
  voids_transaction: number | null;
  reverses_transaction: number | null;
  reversed_by: number | null;
  editable: boolean;
  voidable: boolean;
  reversible: boolean;
  invoice: number | null;
};

const VISA = "4111111111111111";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function send(
  context: SequenceContext,
  apiIndex: number,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; token?: string } = {},
): Promise<Answer> {
  const base = await context.cluster.apiUrl(apiIndex);
  try {
    const response = await fetch(new URL(path, base), {
      method,
      headers: {
        accept: "application/json",
        authorization: `Bearer ${options.token ?? context.client.ownerToken}`,
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    const json = (response.headers.get("content-type") ?? "").includes("json") && text !== "";
    const tally = `${method} ${path.replace(/\d+/g, ":id").split("?")[0]} ${response.status}`;
    context.answers.set(tally, (context.answers.get(tally) ?? 0) + 1);
    if (response.status >= 500) context.serverErrors.push(`${tally}: ${text.slice(0, 200)}`);
    return { status: response.status, body: json ? (JSON.parse(text) as unknown) : text };
  } catch {
    context.faults.lostAnswers += 1;
    return { status: "lost" };
  }
}

async function entries(context: SequenceContext, customerId?: number): Promise<Entry[]> {
  const query = customerId === undefined ? "" : `&customer__id=${customerId}`;
  const answer = await send(context, 0, "GET", `/api/transactions/?limit=500${query}`);
  if (answer.status !== 200) return [];
  return (answer.body as { results: Entry[] }).results;
}

function choose<T>(items: T[], pick: number): T | undefined {
  return items[Math.floor(pick * items.length)];
}

/** A staff payment (or stored method) sent until it has an answer, always with the same key. */
async function pay(context: SequenceContext, op: Operation, key: string, body: Record<string, unknown>) {
  for (let attempt = 0; attempt < 8; attempt++) {
    const answer = await send(context, op.api + attempt, "POST", "/api/payments/make-payment/customer/", {
      body,
      headers: { "idempotency-key": key },
    });
    // An answer (approved, declined, or a 400 for the input) ends it; lost, 409 or 5xx: send again.
    if (answer.status !== "lost" && answer.status < 409) return;
    // 409: still pending (its answer was lost): ask the gateway, as the attempts screen's button does.
    if (answer.status === 409)
      await send(context, op.api, "POST", "/api/payment-attempts/settle/", { body: {} });
    await sleep(100 * (attempt + 1));
  }
}

function customerOf(context: SequenceContext, index: number): number {
  return context.client.customerIds[index % context.client.customerIds.length] ?? 0;
}

function posting(context: SequenceContext, op: Operation, code: number, extra: Record<string, unknown> = {}) {
  return {
    customer: customerOf(context, op.customer),
    code,
    description: `soak ${op.kind}`,
    rate: op.amount,
    quantity: "1",
    serviceDate: "2026-10-01",
    force: true,
    ...extra,
  };
}

/** Runs one operation; kills a process mid-flight when the plan says so. */
export async function runOperation(context: SequenceContext, op: Operation, n: number): Promise<void> {
  if (op.kill) {
    const which = op.kill === "api" ? op.api : Math.floor(op.pick * 2);
    setTimeout(() => {
      if (!context.cluster.kill(op.kill ?? "api", which)) return;
      if (op.kill === "api") context.faults.apiKills += 1;
      else context.faults.workerKills += 1;
    }, op.killDelayMs);
  }
  const { client } = context;
  const key = `${context.key}-${n}`;
  switch (op.kind) {
    case "charge":
      await send(context, op.api, "POST", "/api/transactions/", {
        body: posting(context, op, client.codes.charge),
      });
      return;
    case "payment":
      await send(context, op.api, "POST", "/api/transactions/", {
        body: posting(context, op, client.codes.payment),
      });
      return;
    case "adjustment":
      await send(context, op.api, "POST", "/api/transactions/", {
        body: posting(context, op, client.codes.adjust),
      });
      return;
    case "edit":
    case "move": {
      const target = choose(
        (await entries(context)).filter((entry) => entry.editable && !entry.gateway_trans_id),
        op.pick,
      );
      if (!target) return;
      const customer = op.kind === "move" ? customerOf(context, op.other) : target.customer;
      await send(context, op.api, "PUT", `/api/transactions/${target.id}/`, {
        body: { ...posting(context, op, target.code), customer, description: `soak ${op.kind} ${target.id}` },
      });
      return;
    }
    case "void":
    case "reverse":
    case "delete": {
      const all = await entries(context);
      const allowed = (entry: Entry) =>
        op.kind === "void" ? entry.voidable : op.kind === "reverse" ? entry.reversible : entry.editable;
      const target = choose(
        all.filter((entry) => allowed(entry) && !entry.gateway_trans_id),
        op.pick,
      );
      if (!target) return;
      const path =
        op.kind === "void"
          ? `/api/transactions/${target.id}/void_transaction/`
          : op.kind === "reverse"
            ? `/api/transactions/${target.id}/reversal/`
            : `/api/transactions/${target.id}/`;
      await send(context, op.api, op.kind === "delete" ? "DELETE" : "POST", path, {
        body: op.kind === "delete" ? undefined : {},
      });
      return;
    }
    case "refund": {
      // Taking back a card or ACH payment: the gateway refunds first, then the void or reversal posts.
      const payments = (await entries(context)).filter(
        (entry) =>
          entry.gateway_trans_id && (entry.voidable || entry.reversible) && entry.voids_transaction === null,
      );
      const target = choose(payments, op.pick);
      if (!target) return;
      const path = target.voidable
        ? `/api/transactions/${target.id}/void_transaction/`
        : `/api/transactions/${target.id}/reversal/`;
      for (let attempt = 0; attempt < 4; attempt++) {
        const answer = await send(context, op.api + attempt, "POST", path, { body: {} });
        if (answer.status !== "lost" && answer.status < 500 && answer.status !== 409) return;
        await sleep(150 * (attempt + 1));
        // Re-read: a refund that went through leaves nothing to take back.
        const now = (await entries(context)).find((entry) => entry.id === target.id);
        if (!now || now.voided || now.reversed_by !== null) return;
      }
      return;
    }
    case "invoice": {
      const customer = customerOf(context, op.customer);
      const made = await send(context, op.api, "POST", "/api/invoices/", { body: { customer } });
      if (made.status !== 201 && made.status !== 200) return;
      const invoice = (made.body as { id: number }).id;
      await send(context, op.api, "POST", "/api/transactions/", {
        body: posting(context, op, client.codes.charge, { invoice }),
      });
      if (op.pick < 0.6) await send(context, op.api, "POST", `/api/invoices/${invoice}/close/`, { body: {} });
      return;
    }
    case "batch":
      await send(context, op.api, "POST", "/api/transactionsroutes/", {
        body: {
          customers: [...new Set([customerOf(context, op.customer), customerOf(context, op.other)])],
          code: client.codes.charge,
          amount: op.amount,
          transaction_type: "bulk",
          description: "soak batch",
          service_date: "2026-10-02",
        },
      });
      return;
    case "card-payment":
    case "ach-payment":
    case "store-card": {
      const method =
        op.kind === "ach-payment"
          ? { paymentMethod: "check", checkRoutingNum: "021000021", checkAccountNum: "12345678901" }
          : { paymentMethod: "cc", ccNum: VISA, cvv: "123", expMonth: "12", expYear: "39" };
      await pay(context, op, key, {
        customer_id: customerOf(context, op.customer),
        ...method,
        // Distinct cents per operation: the sandbox answers the same card and amount within seconds as DUPLICATE.
        amount:
          op.kind === "store-card"
            ? "0.00"
            : `${op.amount.split(".")[0]}.${String(n % 100).padStart(2, "0")}`,
        firstName: "Sam",
        lastName: "Soak",
        recordPayment: op.kind === "store-card",
        autoPay: op.kind === "store-card" && op.pick < 0.5,
      });
      return;
    }
    case "lost-answer": {
      // The next sale is charged but its answer lost, and stq finds nothing for a while: the
      // attempt must stay unknown (never charged again) until the lookup finds it.
      context.cluster.sandbox.loseAnswers({ count: 1, stqNoMatchMs: 200 + Math.floor(op.pick * 1500) });
      context.gateway.lost += 1;
      await pay(context, op, key, {
        customer_id: customerOf(context, op.customer),
        paymentMethod: "cc",
        ccNum: VISA,
        cvv: "123",
        expMonth: "12",
        expYear: "39",
        amount: `${op.amount.split(".")[0]}.${String(n % 100).padStart(2, "0")}`,
        firstName: "Sam",
        lastName: "Soak",
      });
      return;
    }
    case "ach-return":
    case "chargeback": {
      const { sandbox } = context.cluster;
      const rejected = new Set(
        sandbox
          .transactions()
          .filter((t) => t.origin === "REJECT")
          .map((t) => t.masterId),
      );
      const sales = sandbox
        .transactions()
        .filter(
          (t) =>
            t.accountId === client.accountId &&
            t.origin !== "REJECT" &&
            t.transType === "SALE" &&
            t.status === "1" &&
            !t.voided &&
            t.refunded === "0.00" &&
            t.paymentType === (op.kind === "ach-return" ? "ACH" : "CREDIT") &&
            !rejected.has(t.transId),
        );
      const sale = choose(sales, op.pick);
      if (!sale) return;
      if (op.kind === "ach-return") {
        sandbox.returnTransaction(sale.transId, ["R01", "R03", "R10"][Math.floor(op.pick * 3)] ?? "R01");
        context.gateway.returns += 1;
        return;
      }
      sandbox.chargeback(sale.transId, { code: "4837", reason: "No cardholder authorization" });
      context.gateway.chargebacks += 1;
      if (op.pick < 0.3) {
        sandbox.reverseChargeback(sale.transId);
        context.gateway.reversals += 1;
      }
      return;
    }
    case "card-run": {
      const stored = await send(context, op.api, "GET", "/api/customers/credit-card-customers/?limit=100");
      const rows =
        stored.status === 200 ? ((stored.body as { results?: { id: number }[] }).results ?? []) : [];
      if (rows.length === 0) return;
      await send(context, op.api, "POST", "/api/customers/make-bulk-payments/", {
        body: { ids: rows.map((row) => row.id) },
      });
      return;
    }
    case "production":
      // Admin-only; the same Idempotency-Key again answers the run already started.
      for (let attempt = 0; attempt < 4; attempt++) {
        const answer = await send(
          context,
          op.api + attempt,
          "POST",
          `/api/dailyproduction/cycle/${client.cycle}/`,
          {
            body: { run_date: client.runDate, client_ids: [client.clientId] },
            headers: { "idempotency-key": key },
            token: context.adminToken,
          },
        );
        if (answer.status !== "lost" && answer.status < 500) return;
        await sleep(150);
      }
      return;
  }
}
