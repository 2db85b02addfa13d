import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { openDatabase } from "./db/database.js";
import { customers } from "./db/tables.js";
import { createUser } from "./modules/users/create-user.js";

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, "..");
const dataDir = mkdtempSync(path.join(tmpdir(), "cyclebill-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      "node",
      ["--conditions=source", "--import", "tsx", "src/cli.ts", ...args],
      {
        cwd: serverDir,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", JWT_SECRET: "cli-test" },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("npm run cli", () => {
  // Eleven CLI processes, one seeding months of demo history: slow on a loaded 2-core machine (over
  // 300 s at a load average of 10 or more).
  it("migrates, creates an admin once, and seeds the demo data", { timeout: 600_000 }, async () => {
    expect(await cli("migrate")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Migrations applied (pglite)"),
    });
    expect(
      await cli("create-admin", "--email", "ops@example.com", "--password", "long-enough-pw"),
    ).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Admin ops@example.com created."),
    });
    expect(
      await cli("create-admin", "--email", "ops@example.com", "--password", "long-enough-pw"),
    ).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("already exists"),
    });
    expect(await cli("create-admin", "--email", "x@example.com", "--password", "short")).toMatchObject({
      code: 1,
    });
    const seeded = await cli("seed-demo");
    expect(seeded.code).toBe(0);
    // An admin exists already, so the demo adds only the client users.
    expect(seeded.stdout).toContain("owner@greenway.example");
    expect(seeded.stdout).not.toContain("admin@cyclebill.example");
    // A self-registered user becomes the owner of a demo client.
    const database = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    await createUser(database.db, { email: "new.owner@example.com", password: null });
    // One whose email nobody proved (anyone can register any address) is refused.
    await createUser(database.db, { email: "unproven@example.com", password: null, emailVerified: false });
    await database.close();
    expect(await cli("attach-user", "--email", "unproven@example.com", "--client", "1001")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("unproven@example.com has not confirmed its email address yet"),
    });
    expect(await cli("attach-user", "--email", "new.owner@example.com", "--client", "1001")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("new.owner@example.com is now an owner of Greenway Lawn & Garden."),
    });
    expect(await cli("attach-user", "--email", "nobody@example.com", "--client", "1001")).toMatchObject({
      code: 1,
    });
    // The doctor proves the seeded books, then finds a balance moved behind the ledger's back.
    expect(await cli("doctor")).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("The books balance:"),
    });
    const broken = await openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    const [victim] = await broken.db
      .update(customers)
      .set({ totalBalance: sql`${customers.totalBalance} + 1` })
      .where(
        and(
          eq(customers.customerNo, 1001),
          eq(customers.clientId, sql`(select id from clients where client_no = 1001)`),
        ),
      )
      .returning({ id: customers.id });
    await broken.close();
    const diagnosis = await cli("doctor", "--client", "1001");
    expect(diagnosis.code).toBe(1);
    expect(diagnosis.stderr).toContain("of client 1001 (Greenway Lawn & Garden) disagree with their ledger");
    expect(diagnosis.stderr).toContain(`customer ${victim?.id}: balance`);
    expect(await cli("doctor", "--client", "9999")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("No client has the number 9999."),
    });
    expect(await cli("bogus")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Unknown command "bogus"'),
    });
  });
});
