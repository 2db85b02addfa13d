import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox, type SandboxOptions } from "./bluepay-sandbox.js";
import { LEGACY_DEMO_ACCOUNT, parseAccounts } from "./sandbox-accounts.js";
import { CARD, EXPIRE, JUNE_2030, query, sale, seal, transaction } from "./test-support/protocol-client.js";

// TPS_HASH_TYPE and TPS_DEF as BluePay documents them; the client here seals with its own code.

const running: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
});

async function sandboxWith(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ now: () => new Date(JUNE_2030), ...options });
  running.push(sandbox);
  return sandbox;
}

const OPEN = { accountId: "100000000077", secretKey: "OPENACCOUNTSECRETKEY000000000077" };
const HMAC_ONLY = {
  accountId: "100000000078",
  secretKey: "HMACACCOUNTSECRETKEY00000000078",
  hashType: "HMAC_SHA512" as const,
};

function on(account: { accountId: string }, fields: Record<string, string> = {}) {
  return { ACCOUNT_ID: account.accountId, ...fields };
}

describe("seals by TPS_HASH_TYPE and TPS_DEF", () => {
  it("takes all five hash types on an account without a setting, and records which", async () => {
    const sandbox = await sandboxWith({ accounts: [OPEN] });
    const types = ["HMAC_SHA512", "HMAC_SHA256", "SHA512", "SHA256", "MD5"] as const;
    for (const [n, type] of types.entries()) {
      const answer = await sale(
        sandbox,
        `${n * 2 + 1}.00`,
        on(OPEN, { TPS_HASH_TYPE: type }),
        OPEN.secretKey,
      );
      expect([type, answer.fields.get("STATUS")]).toEqual([type, "1"]);
    }
    expect(sandbox.transactions().map((t) => t.hashType)).toEqual([...types]);
  });

  it("takes the hash TPS_HASH_TYPE names over the account's setting, and the setting without it", async () => {
    const sandbox = await sandboxWith({ accounts: [HMAC_ONLY] });
    const md5 = await sale(sandbox, "3.00", on(HMAC_ONLY, { TPS_HASH_TYPE: "MD5" }), HMAC_ONLY.secretKey);
    expect([md5.httpStatus, md5.fields.get("STATUS")]).toEqual([200, "1"]);
    expect(sandbox.transactions().at(-1)?.hashType).toBe("MD5");
    // Without TPS_HASH_TYPE the account's own type applies: an md5 seal does not match it.
    const fields = {
      ...on(HMAC_ONLY),
      TRANS_TYPE: "SALE",
      AMOUNT: "3.00",
      PAYMENT_ACCOUNT: CARD,
      CARD_EXPIRE: EXPIRE,
    };
    const names = ["ACCOUNT_ID", "TRANS_TYPE", "AMOUNT", "MASTER_ID", "NAME1", "PAYMENT_ACCOUNT"];
    const unnamed = await fetch(sandbox.bp20postUrl, {
      method: "POST",
      body: new URLSearchParams({
        ...fields,
        TAMPER_PROOF_SEAL: seal(HMAC_ONLY.secretKey, fields, names, "MD5"),
      }),
    });
    expect(await unnamed.text()).toContain("MESSAGE=SECURITY%20ERROR");
    const hmac = await fetch(sandbox.bp20postUrl, {
      method: "POST",
      body: new URLSearchParams({
        ...fields,
        TAMPER_PROOF_SEAL: seal(HMAC_ONLY.secretKey, fields, names, "HMAC_SHA512"),
      }),
    });
    expect(await hmac.text()).toContain("STATUS=1");
    // The legacy demo account is set to MD5; a request naming HMAC_SHA512 is sealed by that.
    const legacy = await sale(
      sandbox,
      "5.00",
      on(LEGACY_DEMO_ACCOUNT, { TPS_HASH_TYPE: "MD5" }),
      LEGACY_DEMO_ACCOUNT.secretKey,
    );
    expect(legacy.fields.get("STATUS")).toBe("1");
    const legacyHmac = await sale(sandbox, "7.00", on(LEGACY_DEMO_ACCOUNT), LEGACY_DEMO_ACCOUNT.secretKey);
    expect(legacyHmac.fields.get("STATUS")).toBe("1");
  });

  it("seals the fields TPS_DEF names, in its order, and refuses one that leaves the amount out", async () => {
    const sandbox = await sandboxWith({ accounts: [HMAC_ONLY] });
    const fields = {
      ...on(HMAC_ONLY),
      MODE: "TEST",
      TRANS_TYPE: "SALE",
      AMOUNT: "9.00",
      PAYMENT_ACCOUNT: CARD,
      CARD_EXPIRE: EXPIRE,
      ORDER_ID: "def-1",
      TPS_HASH_TYPE: "HMAC_SHA512",
    };
    const def = ["ACCOUNT_ID", "TRANS_TYPE", "AMOUNT", "MASTER_ID", "PAYMENT_ACCOUNT", "ORDER_ID", "MODE"];
    const post = (names: string[], tamper: Record<string, string> = {}) =>
      fetch(sandbox.bp20postUrl, {
        method: "POST",
        body: new URLSearchParams({
          ...fields,
          TPS_DEF: names.join(" "),
          TAMPER_PROOF_SEAL: seal(HMAC_ONLY.secretKey, fields, names, "HMAC_SHA512"),
          ...tamper,
        }),
      }).then((response) => response.text());
    expect(await post(def)).toContain("STATUS=1");
    // ORDER_ID is sealed now: changing it breaks the seal.
    expect(await post(def, { ORDER_ID: "def-2" })).toContain("SECURITY%20ERROR");
    expect(await post(["ACCOUNT_ID", "TRANS_TYPE", "MASTER_ID", "PAYMENT_ACCOUNT"])).toContain(
      "MESSAGE=TPS_DEF%20must%20include%20AMOUNT",
    );
  });

  it("seals stq the same way", async () => {
    const sandbox = await sandboxWith();
    await sale(sandbox, "3.00", { ORDER_ID: "q-1" });
    expect((await query(sandbox, { order_id: "q-1" })).fields.get("status")).toBe("1");
    expect((await query(sandbox, { order_id: "q-1", TPS_HASH_TYPE: "SHA256" })).fields.get("status")).toBe(
      "1",
    );
    expect((await query(sandbox, { order_id: "q-1" }, "WRONG")).fields.get("MESSAGE")).toBe("SECURITY ERROR");
  });

  it('reads accounts with a hash type from "id:secret:TYPE"', () => {
    expect(parseAccounts("100000000001:SE:CRET:HMAC_SHA512,100000000002:SECRET")).toEqual([
      { accountId: "100000000001", secretKey: "SE:CRET", hashType: "HMAC_SHA512" },
      { accountId: "100000000002", secretKey: "SECRET" },
    ]);
  });
});

describe("card-on-file, ACH class and payer fields", () => {
  it("records STORED_*, DOC_TYPE, CUSTOMER_IP and DUPLICATE_OVERRIDE, and answers a first use's STORED_ID", async () => {
    const sandbox = await sandboxWith();
    const first = await transaction(sandbox, {
      TRANS_TYPE: "AUTH",
      AMOUNT: "0.00",
      PAYMENT_ACCOUNT: CARD,
      CARD_EXPIRE: EXPIRE,
      STORED_INDICATOR: "F",
      STORED_TYPE: "C",
      CUSTOMER_IP: "203.0.113.9",
      RESPONSEVERSION: "8",
    });
    const storedId = first.fields.get("STORED_ID") ?? "";
    expect(storedId).toMatch(/^TESTID\d+$/);
    const later = await transaction(sandbox, {
      TRANS_TYPE: "SALE",
      AMOUNT: "3.00",
      MASTER_ID: first.fields.get("TRANS_ID") ?? "",
      STORED_INDICATOR: "S",
      STORED_TYPE: "M",
      STORED_ID: storedId,
      DUPLICATE_OVERRIDE: "1",
      RESPONSEVERSION: "8",
    });
    expect(later.fields.get("STORED_ID")).toBe(storedId);
    await transaction(sandbox, {
      TRANS_TYPE: "SALE",
      AMOUNT: "5.00",
      PAYMENT_TYPE: "ACH",
      PAYMENT_ACCOUNT: "C:123123123:1234567",
      DOC_TYPE: "WEB",
    });
    expect(
      sandbox
        .transactions()
        .map((t) => [
          t.hashType,
          t.storedIndicator,
          t.storedType,
          t.storedId,
          t.docType,
          t.customerIp,
          t.duplicateOverride,
        ]),
    ).toEqual([
      ["HMAC_SHA512", "F", "C", storedId, "", "203.0.113.9", false],
      ["HMAC_SHA512", "S", "M", storedId, "", "", true],
      ["HMAC_SHA512", "", "", "", "WEB", "", false],
    ]);
    const bad = await transaction(sandbox, {
      TRANS_TYPE: "SALE",
      AMOUNT: "7.00",
      PAYMENT_ACCOUNT: CARD,
      CARD_EXPIRE: EXPIRE,
      STORED_INDICATOR: "X",
      STORED_TYPE: "C",
    });
    expect(bad.fields.get("MESSAGE")).toBe("Invalid STORED_INDICATOR");
    const badClass = await transaction(sandbox, {
      TRANS_TYPE: "SALE",
      AMOUNT: "7.00",
      PAYMENT_TYPE: "ACH",
      PAYMENT_ACCOUNT: "C:123123123:1234567",
      DOC_TYPE: "XYZ",
    });
    expect(badClass.fields.get("MESSAGE")).toBe("Invalid DOC_TYPE");
  });
});

describe("stq faults", () => {
  it("answers an HTML page, a 502, an unknown shape, a 500 or nothing, still running the query", async () => {
    const sandbox = await sandboxWith();
    await sale(sandbox, "3.00", { ORDER_ID: "f-1" });
    const raw = async () => {
      const response = await fetch(sandbox.stqUrl, { method: "POST", body: "" });
      return [response.status, await response.text()] as const;
    };
    sandbox.setFaults({ stqFault: "html" });
    expect(await raw()).toEqual([200, expect.stringContaining("<html>")]);
    sandbox.setFaults({ stqFault: "bad-gateway" });
    expect(await raw()).toEqual([502, "502 Bad Gateway"]);
    sandbox.setFaults({ stqFault: "unknown-shape" });
    expect(await raw()).toEqual([200, "result=ok&rows=0"]);
    sandbox.setFaults({ stqFault: "server-error" });
    expect((await raw())[0]).toBe(500);
    sandbox.setFaults({ stqFault: "hang" });
    const held = await fetch(sandbox.stqUrl, {
      method: "POST",
      body: "",
      signal: AbortSignal.timeout(200),
    }).then(
      () => "answered",
      (error: unknown) => (error instanceof Error ? error.name : "?"),
    );
    expect(held).toBe("TimeoutError");
    sandbox.setFaults({ stqFault: "none" });
    expect((await query(sandbox, { order_id: "f-1" })).fields.get("status")).toBe("1");
  });
});
