// The calls of the load command and their weights: a staff day on the benchmark client (lists,
// searches, one customer, postings, statement PDFs) plus customers opening their pay links.
import type { LoadTargets } from "./load-setup.js";

export type CallName =
  | "customer list"
  | "customer list sorted"
  | "customer search"
  | "customer typeahead"
  | "transaction list"
  | "transaction list sorted"
  | "customer's transactions"
  | "one customer"
  | "post entry"
  | "statement PDF"
  | "public pay lookup";

/** Which signed-in user sends it: the benchmark client's owner, the payers client's owner, or nobody. */
export type Caller = "bench" | "payers" | "public";

export type LoadRequest = { method: "GET" | "POST"; path: string; body?: string; caller: Caller };

export type Call = { name: CallName; weight: number; request: (index: number) => LoadRequest };

// The lists open in their default order (customer number; newest service date first); now and then
// staff sort by another column.
const CUSTOMER_ORDERINGS = ["customer_name", "-balance", "last_name,first_name", "city", "-id"];
const TRANSACTION_ORDERINGS = ["-id", "customer_no", "-amount", "description"];
// What the benchmark client's customers carry (generate-large-client.ts): first names from a list,
// last names "Anders n" or "Hughes n", customer numbers 100000 + n.
const FIRST_NAMES = ["Ava", "Ben", "Carla", "Dev", "Elena", "Frank", "Grace", "Hector", "Mona", "Omar"];

/** What staff type to find a customer: a first name (many match), a last name, or a number. */
function searchText(index: number, salt: number, customers: number): string {
  const n = 1 + pick(index, salt, customers);
  if (index % 3 === 0) return FIRST_NAMES[pick(index, salt + 1, FIRST_NAMES.length)] ?? "Ava";
  if (index % 3 === 1) return encodeURIComponent(`${n % 2 === 0 ? "Anders" : "Hughes"} ${n}`);
  return String(100_000 + n);
}

/** A well-spread pseudo-random pick (multiplicative hashing) so runs repeat exactly. */
function pick(index: number, salt: number, size: number): number {
  return Math.abs(Math.imul(index + salt * 7_919, 2_654_435_761) >>> 0) % size;
}

/** Weights in parts of 100: mostly reading (lists, a customer and their ledger), a posting in ten. */
export function loadMix(targets: LoadTargets): Call[] {
  const customer = (index: number, salt: number) =>
    targets.firstCustomer + pick(index, salt, targets.customers);
  return [
    {
      name: "customer list",
      weight: 14,
      request: (index) => ({
        method: "GET",
        caller: "bench",
        path: `/api/customers/?limit=15&offset=${15 * pick(index, 2, 40)}`,
      }),
    },
    {
      name: "customer list sorted",
      weight: 4,
      request: (index) => ({
        method: "GET",
        caller: "bench",
        path:
          `/api/customers/?limit=15&ordering=${CUSTOMER_ORDERINGS[pick(index, 1, CUSTOMER_ORDERINGS.length)]}` +
          `&offset=${15 * pick(index, 2, 40)}`,
      }),
    },
    {
      name: "customer search",
      weight: 8,
      request: (index) => ({
        method: "GET",
        caller: "bench",
        path: `/api/customers/?limit=15&query=${searchText(index, 3, targets.customers)}`,
      }),
    },
    {
      name: "customer typeahead",
      weight: 6,
      request: (index) => ({
        method: "GET",
        caller: "bench",
        path: `/api/typeahead/customers/?query=${searchText(index, 5, targets.customers)}`,
      }),
    },
    {
      name: "transaction list",
      weight: 6,
      request: (index) => ({
        method: "GET",
        caller: "bench",
        path: `/api/transactions/?limit=50&offset=${50 * pick(index, 8, 10)}`,
      }),
    },
    {
      name: "transaction list sorted",
      weight: 2,
      request: (index) => ({
        method: "GET",
        caller: "bench",
        path:
          `/api/transactions/?limit=50&ordering=${TRANSACTION_ORDERINGS[pick(index, 7, TRANSACTION_ORDERINGS.length)]}` +
          `&offset=${50 * pick(index, 8, 10)}`,
      }),
    },
    {
      name: "customer's transactions",
      weight: 15,
      request: (index) => ({
        method: "GET",
        caller: "bench",
        path: `/api/transactions/?limit=50&customer__id=${customer(index, 9)}`,
      }),
    },
    {
      name: "one customer",
      weight: 15,
      request: (index) => ({
        method: "GET",
        caller: "bench",
        path: `/api/customers/${customer(index, 10)}/`,
      }),
    },
    {
      name: "post entry",
      weight: 10,
      request: (index) => ({
        method: "POST",
        caller: "bench",
        path: "/api/transactions/",
        body: JSON.stringify({
          customer: targets.postable[pick(index, 11, targets.postable.length)],
          // Two payments in three, a charge in three.
          code: index % 3 === 0 ? targets.chargeCodeId : targets.paymentCodeId,
          description: index % 3 === 0 ? "Load charge" : "Load payment",
          rate: `${1 + pick(index, 12, 90)}.00`,
          // The same entry twice on one day asks for confirmation; the load confirms, as the throughput bench.
          force: true,
        }),
      }),
    },
    {
      name: "statement PDF",
      weight: 3,
      request: (index) => ({
        method: "GET",
        caller: "payers",
        path: `/api/statements/${targets.statementIds[pick(index, 13, targets.statementIds.length)]}/pdf/`,
      }),
    },
    {
      name: "public pay lookup",
      weight: 17,
      request: (index) => ({
        method: "POST",
        caller: "public",
        path: "/api/payments/get-payment-info/",
        body: JSON.stringify({ statementId: targets.payTokens[pick(index, 14, targets.payTokens.length)] }),
      }),
    },
  ];
}

/** The call for the index-th request: a fixed interleaving by weight (smooth, not bursty). */
export function callPicker(calls: readonly Call[]): (index: number) => Call {
  const total = calls.reduce((sum, call) => sum + call.weight, 0);
  // Smooth weighted round robin over one cycle of `total` slots, as nginx spreads upstream weights.
  const current = calls.map(() => 0);
  const order: Call[] = [];
  for (let slot = 0; slot < total; slot++) {
    let best = 0;
    calls.forEach((call, at) => {
      current[at] = (current[at] ?? 0) + call.weight;
      if ((current[at] ?? 0) > (current[best] ?? 0)) best = at;
    });
    current[best] = (current[best] ?? 0) - total;
    const chosen = calls[best];
    if (chosen) order.push(chosen);
  }
  return (index) => order[index % order.length] as Call;
}
