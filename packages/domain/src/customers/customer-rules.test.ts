import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  PULL_FLAGS,
  archiveState,
  customerDisplayName,
  deriveBiPullFlag,
  needsEmail,
} from "./customer-rules.js";

describe("customer rules", () => {
  it("derives the invoice flag from the statement flag", () => {
    expect(deriveBiPullFlag("E")).toBe("E");
    expect(deriveBiPullFlag("M")).toBe("B");
    expect(deriveBiPullFlag("A")).toBe("M");
    fc.assert(
      fc.property(fc.constantFrom(...PULL_FLAGS), (flag) => {
        const derived = deriveBiPullFlag(flag);
        // Emailed statements always give emailed invoices, and the derived pair never needs an email
        // unless the statement flag already did.
        expect(needsEmail(flag, derived)).toBe(needsEmail(flag, "M"));
        expect(["E", "M"].includes(flag)).toBe(derived !== "M");
      }),
    );
  });

  it("reads archive states and names", () => {
    expect(archiveState({ deleted: true, deleteFlag: null })).toBe("archived");
    expect(archiveState({ deleted: false, deleteFlag: "D" })).toBe("delete-when-zero");
    expect(archiveState({ deleted: false, deleteFlag: "S" })).toBe("delete-when-zero-keep-billing");
    expect(archiveState({ deleted: false, deleteFlag: null })).toBe("active");
    expect(customerDisplayName({ firstName: "Ann", lastName: "Lee", companyName: "" })).toBe("Ann Lee");
    expect(customerDisplayName({ firstName: "Ann", lastName: "", companyName: "Lee Co" })).toBe("Lee Co");
  });
});
