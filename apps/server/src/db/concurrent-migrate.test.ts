import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openDatabase } from "./database.js";
import { queryRows } from "./query-rows.js";

const onPostgres = process.env.TEST_DB === "postgres" && Boolean(process.env.TEST_DATABASE_URL);

async function withEmptyDatabase(run: (url: string) => Promise<void>): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL ?? "";
  const name = `cyclebill_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

describe.runIf(onPostgres)("several processes starting on one empty PostgreSQL database", () => {
  it("migrate at once without failing, and the schema is applied once", async () => {
    await withEmptyDatabase(async (url) => {
      const handles = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ kind: "postgres", url, poolSize: 2 })),
      );
      try {
        const results = await Promise.allSettled(handles.map((handle) => handle.migrate()));
        expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "fulfilled"]);
        const [applied] = await queryRows(
          handles[0]!.db,
          sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
          z.object({ count: z.number() }),
        );
        const journal = JSON.parse(
          readFileSync(new URL("../../drizzle/meta/_journal.json", import.meta.url), "utf8"),
        ) as { entries: unknown[] };
        expect(applied?.count).toBe(journal.entries.length);
      } finally {
        await Promise.all(handles.map((handle) => handle.close()));
      }
    });
  });
});
