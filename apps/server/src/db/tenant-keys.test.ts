import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../test-support/test-database.js";
import type { Database, DatabaseHandle } from "./database.js";

/**
 * Global (reference) tables, not owned by one tenant. Every other table of schema public is
 * tenant-owned, so a table added by a later migration is checked without touching this file.
 * (Drizzle's migration journal lives in schema "drizzle" and is never looked at.)
 */
const GLOBAL_TABLES: readonly string[] = [
  "clients",
  "users",
  "user_sessions",
  "password_reset_tokens",
  // A user's second factors belong to the user (provider admins have no client), as tokens do.
  "user_totp_factors",
  "user_recovery_codes",
  "user_passkeys",
  "passkey_challenges",
  "rate_limits",
  "system_messages",
  "units_of_measure",
  "pools",
  // A production run of a cycle spans the cycle's clients (admin), as pools do; its parts are tenant-owned.
  "cycle_runs",
  // A cycle's schedule and its scheduled runs span the cycle's clients too (production_holds is per client).
  "production_schedules",
  "scheduled_runs",
];

const TENANT_KEY = "client_id";

type Rows<T> = { rows: T[] };

type ColumnRow = { table_name: string; is_nullable: string | null };
type ConstraintRow = {
  table_name: string;
  constraint_name: string;
  kind: "p" | "u" | "f";
  columns: string[];
  referenced_table: string | null;
  referenced_columns: string[] | null;
};
type UniqueIndexRow = { table_name: string; index_name: string; first_column: string | null };

async function query<T>(db: Database, statement: ReturnType<typeof sql>): Promise<T[]> {
  // PGlite and node-postgres both answer { rows }.
  return ((await db.execute(statement)) as unknown as Rows<T>).rows;
}

const list = (columns: readonly string[] | null) => `(${(columns ?? []).join(", ")})`;

/**
 * Reads the live schema and names every tenant-owned table that breaks the key rule: a NOT NULL
 * client_id that leads its primary key, every unique constraint and unique index, and both
 * sides of every foreign key to another tenant-owned table (so the schema can be distributed
 * by client_id without rewriting keys). Returns one message per violation; empty when all is well.
 */
async function findTenantKeyViolations(
  db: Database,
  globalTables: readonly string[] = GLOBAL_TABLES,
): Promise<string[]> {
  const tables = await query<{ table_name: string }>(
    db,
    sql`select table_name::text as table_name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const tenantTables = new Set(
    tables.map((row) => row.table_name).filter((name) => !globalTables.includes(name)),
  );

  const tenantKeyColumns = await query<ColumnRow>(
    db,
    sql`select table_name::text as table_name, is_nullable::text as is_nullable
        from information_schema.columns
        where table_schema = 'public' and column_name = ${TENANT_KEY}`,
  );
  // Column names in key order; cast to text[] so both drivers parse the array.
  const constraints = await query<ConstraintRow>(
    db,
    sql`select rel.relname::text as table_name, con.conname::text as constraint_name,
          con.contype::text as kind,
          array(select att.attname::text from unnest(con.conkey) with ordinality as k(attnum, ord)
                join pg_attribute att on att.attrelid = con.conrelid and att.attnum = k.attnum
                order by k.ord)::text[] as columns,
          frel.relname::text as referenced_table,
          case when con.contype = 'f' then
            array(select att.attname::text from unnest(con.confkey) with ordinality as k(attnum, ord)
                  join pg_attribute att on att.attrelid = con.confrelid and att.attnum = k.attnum
                  order by k.ord)::text[]
          end as referenced_columns
        from pg_constraint con
        join pg_class rel on rel.oid = con.conrelid
        join pg_namespace ns on ns.oid = rel.relnamespace
        left join pg_class frel on frel.oid = con.confrelid
        where ns.nspname = 'public' and con.contype in ('p', 'u', 'f')
        order by rel.relname, con.conname`,
  );
  // Unique indexes not made by a constraint (those are checked above). An expression as the
  // first key (indkey[0] = 0) has no column name and so does not start with client_id.
  const uniqueIndexes = await query<UniqueIndexRow>(
    db,
    sql`select tbl.relname::text as table_name, idx.relname::text as index_name,
          att.attname::text as first_column
        from pg_index i
        join pg_class idx on idx.oid = i.indexrelid
        join pg_class tbl on tbl.oid = i.indrelid
        join pg_namespace ns on ns.oid = tbl.relnamespace
        left join pg_attribute att on att.attrelid = i.indrelid and att.attnum = i.indkey[0]
        where ns.nspname = 'public' and i.indisunique
          and not exists (select 1 from pg_constraint con where con.conindid = i.indexrelid
                          and con.conrelid = i.indrelid and con.contype in ('p', 'u', 'x'))
        order by tbl.relname, idx.relname`,
  );

  const violations: string[] = [];
  for (const table of tenantTables) {
    const column = tenantKeyColumns.find((row) => row.table_name === table);
    if (!column) violations.push(`${table}: tenant-owned table has no ${TENANT_KEY} column`);
    else if (column.is_nullable !== "NO") violations.push(`${table}: ${TENANT_KEY} is nullable`);
    if (!constraints.some((row) => row.table_name === table && row.kind === "p")) {
      violations.push(`${table}: tenant-owned table has no primary key`);
    }
  }
  for (const row of constraints) {
    if (!tenantTables.has(row.table_name)) continue;
    const leads = row.columns[0] === TENANT_KEY;
    if (row.kind === "p" && !leads) {
      violations.push(
        `${row.table_name}: primary key ${row.constraint_name} ${list(row.columns)} does not start with ${TENANT_KEY}`,
      );
    } else if (row.kind === "u" && !leads) {
      violations.push(
        `${row.table_name}: unique constraint ${row.constraint_name} ${list(row.columns)} does not start with ${TENANT_KEY}`,
      );
    } else if (row.kind === "f" && row.referenced_table && tenantTables.has(row.referenced_table)) {
      // References to global tables (clients, users, units_of_measure, pools) are fine as they are.
      if (!leads || row.referenced_columns?.[0] !== TENANT_KEY) {
        violations.push(
          `${row.table_name}: foreign key ${row.constraint_name} ${list(row.columns)} -> ` +
            `${row.referenced_table} ${list(row.referenced_columns)} does not start with ${TENANT_KEY} on both sides`,
        );
      }
    }
  }
  for (const row of uniqueIndexes) {
    if (tenantTables.has(row.table_name) && row.first_column !== TENANT_KEY) {
      violations.push(
        `${row.table_name}: unique index ${row.index_name} starts with ${row.first_column ?? "an expression"}, not ${TENANT_KEY}`,
      );
    }
  }
  return violations;
}

describe("tenant keys", () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openTestDatabase();
  });

  afterAll(async () => {
    await handle?.close();
  });

  it("leads every key of every tenant-owned table with client_id", async () => {
    const violations = await findTenantKeyViolations(handle.db);
    expect(violations).toEqual([]);
  });

  it("sees tenant-owned tables at all (the allow-list does not swallow everything)", async () => {
    const tenantTables = await query<{ table_name: string }>(
      handle.db,
      sql`select table_name::text as table_name from information_schema.columns
          where table_schema = 'public' and column_name = ${TENANT_KEY} and is_nullable = 'NO'`,
    );
    const names = tenantTables.map((row) => row.table_name);
    // access_reviews: a provider-wide review is client 0 (as the audit trail's provider chain), so it
    // is tenant-owned like the rest rather than global.
    expect(names).toEqual(
      expect.arrayContaining(["codes", "routes", "customers", "transactions", "access_reviews"]),
    );
  });

  it("reports deliberately bad tables", async () => {
    const { db } = handle;
    try {
      await db.execute(sql`create table bad_thing (id bigint primary key, client_id bigint not null)`);
      await db.execute(sql`create table bad_orphan (id bigint primary key)`);
      await db.execute(sql`create table bad_keys (
          client_id bigint,
          id bigint not null,
          code integer,
          label text,
          route_id bigint,
          constraint bad_keys_code_key unique (code, client_id),
          constraint bad_keys_route_fk foreign key (route_id, client_id) references routes (id, client_id)
        )`);
      await db.execute(sql`create unique index bad_keys_label_idx on bad_keys (lower(label))`);
      await db.execute(sql`create unique index bad_keys_id_idx on bad_keys (id, client_id)`);

      const violations = await findTenantKeyViolations(db);
      expect(violations).toEqual(
        expect.arrayContaining([
          "bad_thing: primary key bad_thing_pkey (id) does not start with client_id",
          "bad_orphan: tenant-owned table has no client_id column",
          "bad_orphan: primary key bad_orphan_pkey (id) does not start with client_id",
          "bad_keys: client_id is nullable",
          "bad_keys: tenant-owned table has no primary key",
          "bad_keys: unique constraint bad_keys_code_key (code, client_id) does not start with client_id",
          "bad_keys: foreign key bad_keys_route_fk (route_id, client_id) -> routes (id, client_id) does not start with client_id on both sides",
          "bad_keys: unique index bad_keys_label_idx starts with an expression, not client_id",
          "bad_keys: unique index bad_keys_id_idx starts with id, not client_id",
        ]),
      );
      expect(violations.every((violation) => violation.startsWith("bad_"))).toBe(true);
      // On the allow-list, the same table is global and no longer reported.
      const allowed = await findTenantKeyViolations(db, [...GLOBAL_TABLES, "bad_thing"]);
      expect(allowed.some((violation) => violation.startsWith("bad_thing:"))).toBe(false);
    } finally {
      await db.execute(sql`drop table if exists bad_thing, bad_orphan, bad_keys`);
    }
    expect(await findTenantKeyViolations(db)).toEqual([]);
  });
});
