import {
  bigint,
  foreignKey,
  numeric,
  timestamp,
  type AnyPgColumn,
  type ForeignKeyBuilder,
} from "drizzle-orm/pg-core";

// Shared column builders so every table spells money and keys the same way.
export const idColumn = () => bigint("id", { mode: "number" }).generatedByDefaultAsIdentity();
export const refColumn = (name: string) => bigint(name, { mode: "number" });
/** Amounts: exact, 2 decimal places, carried as strings. */
export const amountColumn = (name: string) => numeric(name, { precision: 14, scale: 2 });
/** Rates: exact, 5 decimal places, carried as strings. */
export const rateColumn = (name: string) => numeric(name, { precision: 16, scale: 5 });
export const quantityColumn = (name: string) => numeric(name, { precision: 14, scale: 5 });
export const createdAtColumn = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAtColumn = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/** A reference inside one client: (client_id, column) to the target's (client_id, id), under the given name. */
export function clientForeignKey<TTable extends string, TTarget extends string>(
  name: string,
  columns: [AnyPgColumn<{ tableName: TTable }>, AnyPgColumn<{ tableName: TTable }>],
  target: { clientId: AnyPgColumn<{ tableName: TTarget }>; id: AnyPgColumn<{ tableName: TTarget }> },
): ForeignKeyBuilder {
  return foreignKey({ name, columns, foreignColumns: [target.clientId, target.id] });
}
