import { describe, expect, it } from "vitest";
import { cardRunConcurrency, inCardRunLane } from "./card-run-lanes.js";

/** Work that waits like a gateway call, noting how many of its run are under way at once. */
function gatewayLike(tally: { now: number; most: number }) {
  return async () => {
    tally.now += 1;
    tally.most = Math.max(tally.most, tally.now);
    await new Promise((resolve) => setTimeout(resolve, 5));
    tally.now -= 1;
    return "answered";
  };
}

describe("card run lanes", () => {
  it("keeps up to the limit of one run's charges in flight across its chunks, never more", async () => {
    const tally = { now: 0, most: 0 };
    // Three chunks of 25 customers, each charging all of its customers at once.
    const chunks = [0, 1, 2].map(() =>
      Promise.all(Array.from({ length: 25 }, () => inCardRunLane(7, 32, gatewayLike(tally)))),
    );
    const answers = (await Promise.all(chunks)).flat();
    expect(answers).toHaveLength(75);
    expect(tally.most).toBe(32);
  });

  it("counts each run on its own, and frees a lane when a charge fails", async () => {
    const first = { now: 0, most: 0 };
    const second = { now: 0, most: 0 };
    const failing = inCardRunLane(1, 2, () => Promise.reject(new Error("refused")));
    await expect(failing).rejects.toThrow("refused");
    await Promise.all([
      ...Array.from({ length: 6 }, () => inCardRunLane(1, 2, gatewayLike(first))),
      ...Array.from({ length: 6 }, () => inCardRunLane(2, 3, gatewayLike(second))),
    ]);
    expect([first.most, second.most]).toEqual([2, 3]);
  });

  it("reads CARD_RUN_CONCURRENCY, 32 by default", () => {
    expect(cardRunConcurrency({})).toBe(32);
    expect(cardRunConcurrency({ CARD_RUN_CONCURRENCY: "8" })).toBe(8);
    expect(() => cardRunConcurrency({ CARD_RUN_CONCURRENCY: "0" })).toThrow(/CARD_RUN_CONCURRENCY/);
  });
});
