import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { codes } from "../../db/tables.js";

/** A system code (negative number: made by the system, never edited by staff). */
export type SystemCode = {
  code: number;
  codeName: string;
  description: string;
  codeType: "charge" | "payment";
};

/**
 * The client's system code's id, created when missing. Nearly always there already: one read,
 * the insert only the first time (a concurrent creator wins the key, and the read after finds it).
 * `insertFirst`: try the insert before reading (the production run's chunks, as they always did:
 * the first chunk's insert makes a first run's other chunks wait for it).
 */
export async function ensureSystemCode(
  tx: Executor,
  clientId: number,
  wanted: SystemCode,
  insertFirst = false,
): Promise<number> {
  const find = async () => {
    const [row] = await tx
      .select({ id: codes.id })
      .from(codes)
      .where(and(eq(codes.clientId, clientId), eq(codes.code, wanted.code)));
    return row?.id;
  };
  const existing = insertFirst ? undefined : await find();
  if (existing !== undefined) return existing;
  await tx
    .insert(codes)
    .values({ clientId, ...wanted })
    .onConflictDoNothing();
  const made = await find();
  if (made === undefined) throw new Error(`system code ${wanted.code} missing`);
  return made;
}
