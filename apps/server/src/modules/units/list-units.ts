import { asc } from "drizzle-orm";
import type { Page } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { unitsOfMeasure } from "../../db/tables.js";

export type UnitOfMeasure = { id: number; name: string };

export async function listUnitsOfMeasure(db: Database): Promise<Page<UnitOfMeasure>> {
  const rows = await db
    .select({ id: unitsOfMeasure.id, name: unitsOfMeasure.name })
    .from(unitsOfMeasure)
    .orderBy(asc(unitsOfMeasure.id));
  return { count: rows.length, results: rows };
}
