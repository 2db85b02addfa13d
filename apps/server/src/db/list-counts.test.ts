import { describe, expect, it } from "vitest";
import { cachedCount, forgetCounts } from "./list-counts.js";

const db = {};

describe("list counts", () => {
  it("reuses a count until a write for its client forgets it", async () => {
    let counted = 0;
    const count = () => cachedCount(db, 9001, "customers {}", async () => ++counted);
    expect([await count(), await count()]).toEqual([1, 1]);
    forgetCounts(db, 9002);
    expect(await count()).toBe(1);
    forgetCounts(db, 9001);
    expect(await count()).toBe(2);
    forgetCounts(db, undefined);
    expect(await count()).toBe(3);
  });

  it("shares one count between requests that miss together", async () => {
    let counted = 0;
    const slow = async () => {
      counted += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return 42;
    };
    const answers = await Promise.all(Array.from({ length: 5 }, () => cachedCount(db, 9003, "k", slow)));
    expect(answers).toEqual([42, 42, 42, 42, 42]);
    expect(counted).toBe(1);
  });

  it("keeps each database's counts apart", async () => {
    const other = {};
    expect(await cachedCount(db, 9005, "k", async () => 1)).toBe(1);
    expect(await cachedCount(other, 9005, "k", async () => 2)).toBe(2);
    expect(await cachedCount(db, 9005, "k", async () => 3)).toBe(1);
  });

  it("does not keep a count read while a write for its client was answered", async () => {
    let counted = 0;
    const countDuringWrite = async () => {
      counted += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      forgetCounts(db, 9004);
      return counted;
    };
    expect(await cachedCount(db, 9004, "k", countDuringWrite)).toBe(1);
    expect(await cachedCount(db, 9004, "k", async () => ++counted)).toBe(2);
  });
});
