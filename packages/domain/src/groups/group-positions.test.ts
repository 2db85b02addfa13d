import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  placeMember,
  removeMember,
  renumberStops,
  resolveAddStop,
  resolveMoveStop,
} from "./group-positions.js";

describe("group positions", () => {
  it("lets a new member go from the first place to one past the last, clamping larger values", () => {
    expect(resolveAddStop(0, 3)).toBe(0);
    expect(resolveAddStop(3, 3)).toBe(3);
    expect(resolveAddStop(10, 3)).toBe(3);
    expect(resolveAddStop(-4, 3)).toBe(0);
    expect(resolveAddStop("2", 3)).toBe(2);
    expect(resolveAddStop("abc", 3)).toBe(3);
    expect(resolveAddStop(null, 0)).toBe(0);
  });

  it("moves within the group; non-numeric or too large values fall back to the last place", () => {
    expect(resolveMoveStop(1, 3)).toBe(1);
    expect(resolveMoveStop(3, 3)).toBe(2);
    expect(resolveMoveStop(999, 3)).toBe(2);
    expect(resolveMoveStop("x", 3)).toBe(2);
    expect(resolveMoveStop(undefined, 3)).toBe(2);
    expect(resolveMoveStop(-1, 3)).toBe(0);
  });

  it("places and renumbers", () => {
    expect(placeMember(["a", "b", "c"], "c", 0)).toEqual(["c", "a", "b"]);
    expect(placeMember(["a", "b", "c"], "a", 5)).toEqual(["b", "c", "a"]);
    expect(placeMember(["a", "b"], "z", 1)).toEqual(["a", "z", "b"]);
    expect([...renumberStops(["x", "y"]).entries()]).toEqual([
      ["x", 0],
      ["y", 1],
    ]);
  });

  it("never leaves gaps or duplicates, whatever sequence of adds, moves and removes", () => {
    type Step = { kind: "add" | "move" | "remove"; member: number; requested: unknown };
    const requested = fc.oneof(fc.integer({ min: -5, max: 50 }), fc.string(), fc.constant(null), fc.double());
    const step = fc.record({
      kind: fc.constantFrom<Step["kind"]>("add", "move", "remove"),
      member: fc.integer({ min: 0, max: 15 }),
      requested,
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let order: number[] = [];
        for (const { kind, member, requested: value } of steps) {
          const present = order.includes(member);
          if (kind === "add" && !present)
            order = placeMember(order, member, resolveAddStop(value, order.length));
          if (kind === "move" && present)
            order = placeMember(order, member, resolveMoveStop(value, order.length));
          if (kind === "remove") order = removeMember(order, member);
          const stops = [...renumberStops(order).values()].sort((a, b) => a - b);
          expect(stops).toEqual(order.map((_, index) => index));
          expect(new Set(order).size).toBe(order.length);
        }
      }),
    );
  });
});
