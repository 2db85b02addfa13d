import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import pg from "pg";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbText } from "../../db/row-schemas.js";
import { adminQuery } from "../../test-support/test-templates.js";
import { startTestApp, type TestApp } from "../../test-support/test-app.js";
import { recordAudit } from "./record-audit.js";

// Issue 39: "the database role cannot update or delete the trail on PostgreSQL". The grants are
// the ones docs/security.md tells an operator to run, read from that page, so the page stays true.

const onPostgres = process.env.TEST_DB === "postgres" && Boolean(process.env.TEST_DATABASE_URL);

/** The SQL block of docs/security.md that makes the app's role. */
function documentedGrants(role: string, password: string): string[] {
  const page = readFileSync(new URL("../../../../../docs/security.md", import.meta.url), "utf8");
  const block = /```sql\n([\s\S]*?CREATE ROLE cyclebill_app[\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error("docs/security.md has no CREATE ROLE cyclebill_app block");
  return block
    .split("\n")
    .filter((line) => !line.trim().startsWith("--") && line.trim() !== "")
    .join("\n")
    .replaceAll("cyclebill_app", role)
    .replace("'…'", `'${password}'`)
    .split(";")
    .map((statement) => statement.trim())
    .filter(Boolean);
}

describe.skipIf(!onPostgres)("the application's database role", () => {
  const role = `cyclebill_app_${randomBytes(4).toString("hex")}`;
  const password = randomBytes(12).toString("hex");
  let testApp: TestApp;
  let asApp: DatabaseHandle;
  let appUrl: string;

  beforeAll(async () => {
    testApp = await startTestApp();
    for (const statement of documentedGrants(role, password)) await testApp.db.execute(sql.raw(statement));
    const [current] = await queryRows(
      testApp.db,
      sql`select current_database() as name`,
      z.object({ name: dbText }),
    );
    const url = new URL(process.env.TEST_DATABASE_URL ?? "");
    url.username = role;
    url.password = password;
    url.pathname = `/${current?.name ?? ""}`;
    appUrl = url.toString();
    asApp = await openDatabase({ kind: "postgres", url: appUrl, poolSize: 2 });
  });

  afterAll(async () => {
    await asApp?.close();
    await testApp?.close();
    await adminQuery(process.env.TEST_DATABASE_URL ?? "", `DROP ROLE IF EXISTS ${role}`);
  });

  /** Runs one statement as the app's role; answers the error code it failed with, or "ok". */
  async function asAppRole(statement: string): Promise<string> {
    const client = new pg.Client({ connectionString: appUrl });
    await client.connect();
    try {
      await client.query(statement);
      return "ok";
    } catch (error) {
      return String((error as { code?: string }).code);
    } finally {
      await client.end();
    }
  }

  it("writes the trail through the app's own writer", async () => {
    await recordAudit(asApp.db, {
      clientId: null,
      action: "role.check",
      recordKind: "role",
      recordId: role,
      changes: [["granted", null, "insert, select"]],
    });
    const rows = await queryRows(
      testApp.db,
      sql`select action from audit_events where record_id = ${role}`,
      z.object({ action: dbText }),
    );
    expect(rows).toEqual([{ action: "role.check" }]);
  });

  it("may not change, delete or empty the trail (permission denied, not only the trigger)", async () => {
    await testApp.db.execute(sql`alter table audit_events disable trigger user`);
    try {
      expect(await asAppRole("update audit_events set action = 'forged'")).toBe("42501");
      expect(await asAppRole("delete from audit_events")).toBe("42501");
      expect(await asAppRole("truncate audit_events")).toBe("42501");
      // The trigger cannot be switched off by the app either: it does not own the table.
      expect(await asAppRole("alter table audit_events disable trigger user")).toBe("42501");
    } finally {
      await testApp.db.execute(sql`alter table audit_events enable trigger user`);
    }
    const [count] = await queryRows(
      testApp.db,
      sql`select count(*)::text as n from audit_events where action = 'forged'`,
      z.object({ n: dbText }),
    );
    expect(count?.n).toBe("0");
  });
});
