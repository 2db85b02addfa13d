import { describe, expect, test } from "vitest";
import { countOf, nounFor, plural } from "./plural";

describe("count labels", () => {
  test("one takes the singular; zero, many and fractions the plural", () => {
    expect(countOf(1, "transaction")).toBe("1 transaction");
    expect(countOf(0, "transaction")).toBe("0 transactions");
    expect(countOf(2, "statement")).toBe("2 statements");
    expect(countOf(1, "entry", "entries")).toBe("1 entry");
    expect(countOf(3, "entry", "entries")).toBe("3 entries");
    expect(countOf(1204, "customer")).toBe("1,204 customers");
    expect(plural(1.5, "hour")).toBe("hours");
    expect(nounFor(1, { one: "entry", other: "entries" })).toBe("entry");
    expect(nounFor(7, { one: "code" })).toBe("codes");
  });
});
