import { afterEach, describe, expect, it } from "vitest";
import { businessToday, currentClock, setClock } from "./clock.js";

const original = currentClock();
afterEach(() => setClock(original));

describe("the one clock", () => {
  it("gives today's business date in the provider's time zone from an injected now", () => {
    setClock({ now: () => new Date("2027-01-01T04:30:00Z"), timeZone: "America/Los_Angeles" });
    expect(businessToday()).toBe("2026-12-31");
    setClock({ timeZone: "Europe/Berlin" });
    expect(businessToday()).toBe("2027-01-01");
  });
});
