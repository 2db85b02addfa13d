import { getTableColumns } from "drizzle-orm";
import { clients } from "../../db/tables.js";

export type ClientRow = typeof clients.$inferSelect;
export type ClientOutput = Record<string, string | number | boolean | null> & {
  id: number;
  client_no: number;
  client_name: string;
  has_blue_pay_key: boolean;
};

// The API names client fields as the specification does: the database column names, except
// the three late-fee kind fields, which the spec spells in camelCase.
const apiNameOverrides: Record<string, string> = {
  thirty_day_rate_or_percent: "thirtyDayRateOrPercent",
  sixty_day_rate_or_percent: "sixtyDayRateOrPercent",
  ninety_day_rate_or_percent: "ninetyDayRateOrPercent",
};

const SECRET_COLUMNS = new Set(["bluepaySecretKeyEncrypted"]);

const outputColumns = Object.entries(getTableColumns(clients))
  .filter(([key]) => !SECRET_COLUMNS.has(key))
  .map(([key, column]) => ({
    key: key as keyof ClientRow,
    apiName: apiNameOverrides[column.name] ?? column.name,
  }));

/** API field name to the table's key, for writes. */
export const clientColumnKeyByApiName: ReadonlyMap<string, keyof ClientRow> = new Map(
  outputColumns.map(({ key, apiName }) => [apiName, key]),
);

/** Every client field but the gateway secret, which is only ever reported as has_blue_pay_key. */
export function clientToApi(row: ClientRow): ClientOutput {
  const output: Record<string, string | number | boolean | null> = {};
  for (const { key, apiName } of outputColumns) {
    const value = row[key];
    output[apiName] =
      value instanceof Date ? value.toISOString() : (value as string | number | boolean | null);
  }
  output.has_blue_pay_key = row.bluepaySecretKeyEncrypted !== null && row.bluepaySecretKeyEncrypted !== "";
  return output as ClientOutput;
}
