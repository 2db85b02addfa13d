import { sql, type SQL } from "drizzle-orm";

// Set-based writes pass each column as ONE array parameter, whatever the number of rows: a
// parameter per value would pass PostgreSQL's 65,535-parameter limit on a large client. The
// literals are built here (not by a driver) so PGlite and node-postgres receive the same text.

export type ArrayType = "bigint" | "int" | "numeric" | "date" | "text" | "boolean" | "timestamptz";

function element(value: string | number | boolean | null): string {
  if (value === null) return "NULL";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  // Quoted, with backslashes and double quotes escaped: safe for any text, even "NULL" or "{,}".
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** One SQL array parameter of the given element type, e.g. `$1::numeric[]`. */
export function sqlArray(values: readonly (string | number | boolean | null)[], type: ArrayType): SQL {
  return sql`${`{${values.map(element).join(",")}}`}::${sql.raw(type)}[]`;
}
