import { seededRandom } from "@cyclebill/gateway-sandbox";
// The seeded generator: sequence i's plan depends only on (seed, i), so a failing sequence replays
// with `--seed N --start i --sequences 1`. Operations name their targets by a random pick among
// what exists when they run (read back through the API), never by ids known in advance.

/** A seed for sequence i of a run, mixed so neighbouring sequences share nothing. */
export function sequenceSeed(seed: number, index: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}

export type OperationKind =
  | "charge"
  | "payment"
  | "adjustment"
  | "edit"
  | "move"
  | "void"
  | "reverse"
  | "delete"
  | "invoice"
  | "batch"
  | "card-payment"
  | "ach-payment"
  | "store-card"
  | "refund"
  | "card-run"
  | "production"
  | "lost-answer"
  | "ach-return"
  | "chargeback";

/** Where a kill -9 lands: on the API process serving this operation, or on a worker. */
export type KillTarget = "api" | "worker";

export type Operation = {
  kind: OperationKind;
  /** Which customer (index into the sequence's customers). */
  customer: number;
  /** A second customer (a move, a batch's second member). */
  other: number;
  /** Whole dollars and cents; odd dollars approve at the sandbox, even decline. */
  amount: string;
  /** Picks the target entry among those that qualify when the operation runs. */
  pick: number;
  /** Which API process serves it (0 or 1). */
  api: number;
  /** Kill a process while this operation is in flight, after `killDelayMs`. */
  kill: KillTarget | null;
  killDelayMs: number;
};

export type SequencePlan = {
  seed: number;
  index: number;
  /** Seed of the sandbox's dropped answers for this sequence. */
  gatewaySeed: number;
  customers: number;
  /** Customers (by index) with a monthly recurring charge. */
  recurring: number[];
  operations: Operation[];
};

// Weights of the operations: postings and payments most, production runs about one in five sequences.
const WEIGHTS: [OperationKind, number][] = [
  ["charge", 16],
  ["payment", 7],
  ["adjustment", 5],
  ["edit", 6],
  ["move", 4],
  ["void", 5],
  ["reverse", 4],
  ["delete", 3],
  ["invoice", 5],
  ["batch", 4],
  ["card-payment", 10],
  ["ach-payment", 4],
  ["store-card", 3],
  ["refund", 5],
  ["card-run", 1.5],
  // Money after the first answer: a sale whose answer is lost while stq still says "no match",
  // an ACH debit returned (R01, R03 or R10) and a card sale charged back (sometimes reversed).
  ["lost-answer", 4],
  ["ach-return", 2.5],
  ["chargeback", 2],
];
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);

function pickKind(random: () => number): OperationKind {
  let roll = random() * TOTAL_WEIGHT;
  for (const [kind, weight] of WEIGHTS) {
    roll -= weight;
    if (roll < 0) return kind;
  }
  return "charge";
}

function amountOf(random: () => number): string {
  const dollars = 1 + Math.floor(random() * 60);
  const cents = random() < 0.5 ? 0 : Math.floor(random() * 100);
  return `${dollars}.${String(cents).padStart(2, "0")}`;
}

/** The plan of sequence `index` of a run with `seed`. */
export function planSequence(seed: number, index: number): SequencePlan {
  const random = seededRandom(sequenceSeed(seed, index));
  const customers = 3 + Math.floor(random() * 4);
  const recurring = Array.from({ length: customers }, (_, customer) => customer).filter(() => random() < 0.5);
  const count = 10 + Math.floor(random() * 21);
  const operations: Operation[] = [];
  for (let n = 0; n < count; n++) {
    const kind = pickKind(random);
    operations.push({
      kind,
      customer: Math.floor(random() * customers),
      other: Math.floor(random() * customers),
      amount: amountOf(random),
      pick: random(),
      api: random() < 0.5 ? 0 : 1,
      kill: null,
      killDelayMs: 0,
    });
  }
  // About one sequence in five runs its client's production, somewhere after the first third.
  if (random() < 0.2) {
    const at = Math.floor(count / 3 + random() * (count - count / 3));
    operations.splice(at, 0, {
      kind: "production",
      customer: 0,
      other: 0,
      amount: "0.00",
      pick: random(),
      api: random() < 0.5 ? 0 : 1,
      kill: null,
      killDelayMs: 0,
    });
  }
  // About one sequence in four kills a process: an API mid-request, or a worker mid-job.
  if (random() < 0.25) {
    const operation = operations[Math.floor(random() * operations.length)];
    if (operation) {
      const jobs = operation.kind === "production" || operation.kind === "card-run";
      operation.kill = jobs && random() < 0.7 ? "worker" : random() < 0.7 ? "api" : "worker";
      // A worker killed for a job operation dies once the job is likely in hand (pg-boss polls
      // every 0.5 s); an API dies while the request is in flight.
      operation.killDelayMs =
        jobs && operation.kill === "worker" ? 300 + Math.floor(random() * 900) : Math.floor(random() * 40);
    }
  }
  return {
    seed,
    index,
    gatewaySeed: Math.floor(random() * 2 ** 31),
    customers,
    recurring,
    operations,
  };
}
