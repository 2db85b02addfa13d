import { describe, expect, it } from "vitest";
import {
  parseStatementPayToken,
  poolFulfilmentOf,
  poolName,
  statementPayLink,
  statementPayToken,
} from "./pool-rules.js";

describe("pool rules", () => {
  it("puts paper statements in the client's fulfilment pool and email-only ones in none", () => {
    expect(poolFulfilmentOf("mail", "")).toBe("mail");
    expect(poolFulfilmentOf("both", "")).toBe("mail");
    expect(poolFulfilmentOf("mail", "C")).toBe("bulk");
    expect(poolFulfilmentOf("both", "A")).toBe("alternate");
    expect(poolFulfilmentOf("pulled", "C")).toBe("pulled");
    expect(poolFulfilmentOf("email", "")).toBeNull();
  });

  it("names a pool by date, cycle, client number and fulfilment", () => {
    expect(poolName({ runDate: "2026-11-05", cycle: 1, clientNo: 1001, fulfilment: "mail" })).toBe(
      "2026-11-05-C01-1001-mail",
    );
  });

  it("reads back the pay token it writes and refuses anything else", () => {
    const code = "0123456789abcdef0123456789abcdef";
    expect(parseStatementPayToken(statementPayToken(12, code))).toEqual({ clientId: 12, payCode: code });
    expect(statementPayLink("http://x.test/", 12, code)).toBe(
      `http://x.test/payments?statement_id=12-${code}`,
    );
    for (const bad of ["12", "12-abc", "0-" + code, "12-" + code.toUpperCase(), "x-" + code, "1001"])
      expect(parseStatementPayToken(bad)).toBeNull();
  });
});
