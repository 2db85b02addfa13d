import { describe, expect, it } from "vitest";
import {
  decideStatement,
  groupFlagAfterRun,
  pullFlagAfterRun,
  type StatementInput,
} from "./statement-decision.js";

const base: StatementInput = {
  pullFlag: "A",
  deleteFlag: null,
  groupFlags: [],
  billCriteria: "00",
  newBalance: "20.00",
  mailingAddress: { address1: "1 Main St", city: "Peoria", state: "IL", zip: "61602" },
  email: "pat@example.com",
};
const noAddress = { address1: "", city: "", state: "", zip: "" };
const decide = (change: Partial<StatementInput>) => decideStatement({ ...base, ...change });

describe("decideStatement", () => {
  it("holds back a statement it cannot deliver as the flags say, with the reason", () => {
    expect(decide({ pullFlag: "A", mailingAddress: noAddress })).toEqual({
      produce: false,
      reason: "no_mailing_address",
    });
    expect(decide({ pullFlag: "A", mailingAddress: { ...base.mailingAddress, zip: "616" } })).toEqual({
      produce: false,
      reason: "no_mailing_address",
    });
    expect(decide({ pullFlag: "E", email: " " })).toEqual({ produce: false, reason: "no_email_address" });
    expect(decide({ pullFlag: "M", email: "" })).toEqual({ produce: false, reason: "no_email_address" });
    expect(decide({ pullFlag: "M", mailingAddress: noAddress }).produce).toBe(false);
    // Email needs no address, mail no email, and a pulled statement neither.
    expect(decide({ pullFlag: "E", mailingAddress: noAddress })).toEqual({
      produce: true,
      delivery: "email",
    });
    expect(decide({ pullFlag: "A", email: "" })).toEqual({ produce: true, delivery: "mail" });
    expect(decide({ pullFlag: "P", mailingAddress: noAddress, email: "" })).toEqual({
      produce: true,
      delivery: "pulled",
    });
    // A customer who gets no statement anyway is not an exception.
    expect(decide({ pullFlag: "N", mailingAddress: noAddress })).toEqual({
      produce: false,
      reason: "no_bill_this_month",
    });
  });

  it("sends by the pull flag: A mail, E email, M both, T and P pulled; N and L none", () => {
    expect(decide({ pullFlag: "A" })).toEqual({ produce: true, delivery: "mail" });
    expect(decide({ pullFlag: "E" })).toEqual({ produce: true, delivery: "email" });
    expect(decide({ pullFlag: "M" })).toEqual({ produce: true, delivery: "both" });
    expect(decide({ pullFlag: "T" })).toEqual({ produce: true, delivery: "pulled" });
    expect(decide({ pullFlag: "P" })).toEqual({ produce: true, delivery: "pulled" });
    expect(decide({ pullFlag: "N" })).toEqual({ produce: false, reason: "no_bill_this_month" });
    expect(decide({ pullFlag: "L" })).toEqual({ produce: false, reason: "no_bill" });
  });

  it("applies the client's bill production criteria to the new balance", () => {
    expect(decide({ billCriteria: "00", newBalance: "0.00" }).produce).toBe(true);
    expect(decide({ billCriteria: "01", newBalance: "4.99" })).toEqual({
      produce: false,
      reason: "under_minimum",
    });
    expect(decide({ billCriteria: "01", newBalance: "-10.00" })).toEqual({
      produce: false,
      reason: "under_minimum",
    });
    expect(decide({ billCriteria: "01", newBalance: "5.00" }).produce).toBe(true);
    expect(decide({ billCriteria: "02", newBalance: "-0.01" })).toEqual({
      produce: false,
      reason: "credit_balance",
    });
    expect(decide({ billCriteria: "02", newBalance: "0.00" }).produce).toBe(true);
    expect(decide({ billCriteria: "03", newBalance: "0.00" })).toEqual({
      produce: false,
      reason: "zero_balance",
    });
    expect(decide({ billCriteria: "03", newBalance: "-1.00" }).produce).toBe(true);
    expect(decide({ billCriteria: "99", newBalance: "0.00" }).produce).toBe(true);
  });

  it("stops billing for delete flag D and keeps it for S", () => {
    expect(decide({ deleteFlag: "D" })).toEqual({ produce: false, reason: "delete_flag" });
    expect(decide({ deleteFlag: "S" })).toEqual({ produce: true, delivery: "mail" });
  });

  it("gives a group member with skip or pause no statement", () => {
    expect(decide({ groupFlags: ["standard", "skip"] })).toEqual({ produce: false, reason: "group_skip" });
    expect(decide({ groupFlags: ["pause"] })).toEqual({ produce: false, reason: "group_pause" });
    expect(decide({ groupFlags: ["standard"] }).produce).toBe(true);
  });
});

describe("flags after a run", () => {
  it("returns T and N to A and keeps the others", () => {
    expect(["A", "E", "M", "T", "P", "N", "L"].map(pullFlagAfterRun)).toEqual([
      "A",
      "E",
      "M",
      "A",
      "P",
      "A",
      "L",
    ]);
  });
  it("resets a group's skip to standard and keeps pause", () => {
    expect(["standard", "skip", "pause"].map(groupFlagAfterRun)).toEqual(["standard", "standard", "pause"]);
  });
});
