import { describe, expect, test } from "vitest";
import { maxPosition, stopForPosition } from "./group-positions";

describe("group positions", () => {
  test("the largest position is the group's size, one more when adding", () => {
    expect(maxPosition(0, true)).toBe(1);
    expect(maxPosition(0, false)).toBe(1);
    expect(maxPosition(4, false)).toBe(4);
    expect(maxPosition(4, true)).toBe(5);
  });

  test("a typed position becomes a 0-based stop, clamped to 1 and the maximum", () => {
    expect(stopForPosition("1", 4, false)).toBe(0);
    expect(stopForPosition(" 3 ", 4, false)).toBe(2);
    expect(stopForPosition("9", 4, false)).toBe(3);
    expect(stopForPosition("9", 4, true)).toBe(4);
    expect(stopForPosition("0", 4, true)).toBe(0);
    expect(stopForPosition("-2", 4, false)).toBe(0);
    expect(stopForPosition(2, 4, false)).toBe(1);
  });

  test("empty or not a number: the last place when adding (the server decides), else the last stop", () => {
    expect(stopForPosition("", 4, true)).toBeUndefined();
    expect(stopForPosition("abc", 4, true)).toBeUndefined();
    expect(stopForPosition("", 4, false)).toBe(3);
    expect(stopForPosition("1.5", 0, false)).toBe(0);
  });
});
