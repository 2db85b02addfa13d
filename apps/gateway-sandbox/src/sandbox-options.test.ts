import { describe, expect, it } from "vitest";
import { parseAccounts } from "./sandbox-accounts.js";
import { DEFAULT_SANDBOX_PORT, sandboxOptionsFrom } from "./sandbox-options.js";

describe("sandbox options from the command line and the environment", () => {
  it("defaults to port 4010 with no extra accounts and no faults", () => {
    expect(sandboxOptionsFrom([], {})).toMatchObject({
      port: DEFAULT_SANDBOX_PORT,
      host: "127.0.0.1",
      accounts: [],
      faults: { latencyMs: 0, dropRate: 0, hangRate: 0, seed: 1 },
    });
  });

  it("reads BLUEPAY_SANDBOX_PORT and BLUEPAY_SANDBOX_ACCOUNTS; flags win", () => {
    const env = {
      BLUEPAY_SANDBOX_PORT: "4020",
      BLUEPAY_SANDBOX_ACCOUNTS: "100000000001:KEY-A, 100000000002:KEY:B",
    };
    expect(sandboxOptionsFrom([], env)).toMatchObject({
      port: 4020,
      accounts: [
        { accountId: "100000000001", secretKey: "KEY-A" },
        { accountId: "100000000002", secretKey: "KEY:B" },
      ],
    });
    const flags = [
      "--port",
      "4030",
      "--accounts",
      "1:x",
      "--drop-rate",
      "0.25",
      "--latency-ms",
      "50",
      "--seed",
      "3",
    ];
    expect(sandboxOptionsFrom(flags, env)).toMatchObject({
      port: 4030,
      accounts: [{ accountId: "1", secretKey: "x" }],
      faults: { latencyMs: 50, dropRate: 0.25, hangRate: 0, seed: 3 },
    });
  });

  it("refuses malformed values without echoing a secret", () => {
    expect(() => sandboxOptionsFrom(["--port", "http"], {})).toThrow(/port must be a whole number/);
    expect(() => sandboxOptionsFrom(["--nope"], {})).toThrow();
    expect(() => parseAccounts("100000000001:SECRET,justasecret")).toThrow(/entry 2 is not/);
    expect(() => parseAccounts("100000000001:SECRET,justasecret")).not.toThrow(/justasecret/);
    expect(parseAccounts(undefined)).toEqual([]);
  });
});
