// Injected faults for the gateway calls (bp20post and stq), drawn from a seeded generator so a
// failing run can be replayed: the same seed and rates drop and hold the same requests in order.
// A fault never stops the work: the transaction is recorded first, then its answer is late,
// dropped (connection destroyed without a byte) or held (never sent; the client times out).

/**
 * How stq answers, besides its own answer: an HTML error page (HTTP 200), a proxy's "502 Bad
 * Gateway", a form answer of a shape BluePay never documented, an HTTP 500, or no answer at all.
 */
export const STQ_FAULTS = ["none", "html", "bad-gateway", "unknown-shape", "server-error", "hang"] as const;
export type StqFault = (typeof STQ_FAULTS)[number];

export type SandboxFaults = {
  /** Wait this long before answering (or dropping) each gateway call. */
  latencyMs: number;
  /** Share of calls, 0..1, whose connection is destroyed without an answer. */
  dropRate: number;
  /** Share of calls, 0..1, that are never answered (the connection stays open). */
  hangRate: number;
  /** Seed of the generator; setting it (again) restarts the sequence. */
  seed: number;
  /** Every stq call answers this way (the query itself is still run). */
  stqFault: StqFault;
};

export type FaultDecision = "answer" | "drop" | "hang";

export const NO_FAULTS: SandboxFaults = { latencyMs: 0, dropRate: 0, hangRate: 0, seed: 1, stqFault: "none" };

const MAX_LATENCY_MS = 600_000;

/** mulberry32: tiny, fast, and the same sequence everywhere for a seed. */
export function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Checks the numbers; throws with the field's name so a bad control request answers 400. */
export function validFaults(faults: SandboxFaults): SandboxFaults {
  const rate = (name: string, value: number) => {
    if (!Number.isFinite(value) || value < 0 || value > 1) throw new Error(`${name} must be from 0 to 1`);
  };
  rate("dropRate", faults.dropRate);
  rate("hangRate", faults.hangRate);
  if (faults.dropRate + faults.hangRate > 1) throw new Error("dropRate + hangRate must be at most 1");
  if (!Number.isInteger(faults.latencyMs) || faults.latencyMs < 0 || faults.latencyMs > MAX_LATENCY_MS)
    throw new Error(`latencyMs must be a whole number from 0 to ${MAX_LATENCY_MS}`);
  if (!Number.isInteger(faults.seed)) throw new Error("seed must be a whole number");
  if (!(STQ_FAULTS as readonly string[]).includes(faults.stqFault))
    throw new Error(`stqFault must be one of ${STQ_FAULTS.join(", ")}`);
  return faults;
}

export type FaultPlan = {
  current: () => SandboxFaults;
  set: (changes: Partial<SandboxFaults>) => SandboxFaults;
  decide: () => FaultDecision;
};

export function createFaultPlan(initial: Partial<SandboxFaults> = {}): FaultPlan {
  let faults = validFaults({ ...NO_FAULTS, ...initial });
  let next = generator(faults.seed);
  return {
    current: () => ({ ...faults }),
    set: (changes) => {
      faults = validFaults({ ...faults, ...changes });
      if (changes.seed !== undefined) next = generator(faults.seed);
      return { ...faults };
    },
    decide: () => {
      // One draw per call, whatever the rates, so changing a rate never shifts later draws.
      const draw = next();
      if (draw < faults.dropRate) return "drop";
      if (draw < faults.dropRate + faults.hangRate) return "hang";
      return "answer";
    },
  };
}
