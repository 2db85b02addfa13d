import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/database.js";
import { clients } from "../../db/tables.js";
import { openTestDatabase } from "../../test-support/test-database.js";
import { sealSecret } from "../secrets/secret-box.js";
import { loadBluepayCredentials } from "./bluepay-credentials.js";

const SECRETS_KEY = "test-secrets-key";
let database: DatabaseHandle;
const ids: Record<"withKey" | "withoutKey" | "otherKey", number> = { withKey: 0, withoutKey: 0, otherKey: 0 };

beforeAll(async () => {
  database = await openTestDatabase();
  const address = { address1: "1 St", city: "Austin", state: "TX", zip: "73301" };
  const rows = await database.db
    .insert(clients)
    .values([
      {
        clientNo: 5001,
        clientName: "Keyed",
        ...address,
        bluepayAccountId: " 100000000042 ",
        bluepaySecretKeyEncrypted: sealSecret(SECRETS_KEY, "CLIENT42SECRETKEY0123456789ABCDE"),
      },
      { clientNo: 5002, clientName: "Keyless", ...address, bluepayAccountId: "100000000043" },
      {
        clientNo: 5003,
        clientName: "Sealed elsewhere",
        ...address,
        bluepayAccountId: "100000000044",
        bluepaySecretKeyEncrypted: sealSecret("another-key", "SOME-SECRET"),
      },
    ])
    .returning({ id: clients.id });
  const [withKey, withoutKey, otherKey] = rows.map((row) => row.id);
  if (withKey === undefined || withoutKey === undefined || otherKey === undefined)
    throw new Error("clients not made");
  Object.assign(ids, { withKey, withoutKey, otherKey });
});

afterAll(async () => {
  await database.close();
});

describe("a client's BluePay credentials", () => {
  it("opens the secret key from its encrypted column", async () => {
    expect(await loadBluepayCredentials(database.db, SECRETS_KEY, ids.withKey)).toEqual({
      accountId: "100000000042",
      secretKey: "CLIENT42SECRETKEY0123456789ABCDE",
      hashType: "HMAC_SHA512",
    });
  });

  it("is none without a key, or for a client that does not exist", async () => {
    expect(await loadBluepayCredentials(database.db, SECRETS_KEY, ids.withoutKey)).toBeNull();
    expect(await loadBluepayCredentials(database.db, SECRETS_KEY, 999_999)).toBeNull();
  });

  it("throws, naming the client and not the key, when the key was sealed with another BILLING_SECRETS_KEY", async () => {
    const failure = loadBluepayCredentials(database.db, SECRETS_KEY, ids.otherKey);
    await expect(failure).rejects.toThrow(`client ${ids.otherKey}'s BluePay secret key does not open`);
    await expect(failure).rejects.not.toThrow(/SOME-SECRET/);
  });
});
