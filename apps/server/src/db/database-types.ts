import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as tables from "./tables.js";

export type Schema = typeof tables;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A database handle or an open transaction: functions that write money take this. */
export type Executor = Pick<Database, "select" | "insert" | "update" | "delete" | "execute" | "transaction">;
