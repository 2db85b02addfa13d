import { describe, expect, it } from "vitest";
import { readsOversight } from "./audit-records.js";

describe("readsOversight", () => {
  it("lets the provider's admins and a client's owners read the trail and the access review, not staff", () => {
    expect(readsOversight({ role: "admin", clientId: null })).toBe(true);
    expect(readsOversight({ role: "owner", clientId: 7 })).toBe(true);
    expect(readsOversight({ role: "owner", clientId: null })).toBe(false);
    expect(readsOversight({ role: "staff", clientId: 7 })).toBe(false);
  });
});
