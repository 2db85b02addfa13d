import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { bootstrapData, formatDemoLogins } from "./bootstrap.js";
import type { DatabaseHandle } from "./db/database.js";
import { queryRows } from "./db/query-rows.js";
import { dbBool, dbText } from "./db/row-schemas.js";
import { verifyPassword } from "./modules/auth/passwords.js";
import { openTestDatabase } from "./test-support/test-database.js";

const silentLog = { info: () => undefined, warn: () => undefined };
let database: DatabaseHandle | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

async function users(handle: DatabaseHandle) {
  return queryRows(
    handle.db,
    sql`select email, is_admin, password_hash from users order by id`,
    z.object({ email: dbText, is_admin: dbBool, password_hash: dbText.nullable() }),
  );
}

describe("first-start data", () => {
  it(
    "seeds the demo once, on an empty database only, with a printed admin",
    { timeout: 180_000 },
    async () => {
      database = await openTestDatabase();
      const config = { adminEmail: null, adminPassword: null, seedDemo: true };
      const logins = await bootstrapData(database.db, config, silentLog);
      expect(logins.map((login) => login.email)).toContain("admin@cyclebill.example");
      expect(formatDemoLogins(logins, "http://localhost:8080")).toContain("These logins are shown only once");
      expect(await bootstrapData(database.db, config, silentLog)).toEqual([]);
      expect(await users(database)).toHaveLength(5);
    },
  );

  // Seeds the same demo history as the test above, so it needs the same time on a loaded machine.
  it("creates the configured admin once instead of the printed one", { timeout: 180_000 }, async () => {
    database = await openTestDatabase();
    const config = { adminEmail: "Boss@Example.com", adminPassword: "a-long-secret", seedDemo: true };
    const logins = await bootstrapData(database.db, config, silentLog);
    expect(logins.map((login) => login.email)).not.toContain("admin@cyclebill.example");
    await bootstrapData(database.db, config, silentLog);
    const admins = (await users(database)).filter((user) => user.is_admin);
    expect(admins.map((admin) => admin.email)).toEqual(["boss@example.com"]);
    expect(await verifyPassword(admins[0]?.password_hash ?? "", "a-long-secret")).toBe(true);
  });

  it("adds no demo data when BILLING_DEMO=0", async () => {
    database = await openTestDatabase();
    expect(
      await bootstrapData(database.db, { adminEmail: null, adminPassword: null, seedDemo: false }, silentLog),
    ).toEqual([]);
    expect(await users(database)).toEqual([]);
  });
});
