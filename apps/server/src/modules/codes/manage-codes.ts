import { and, asc, eq, gt, ilike, inArray, or, sql } from "drizzle-orm";
import type { Page } from "@cyclebill/domain";
import type { z } from "zod";
import type { Database } from "../../db/database.js";
import { codes } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { nonFieldError, notFound } from "../../http/errors.js";
import { codesResource, SYSTEM_CODE_MESSAGE, type CodeOutput } from "./codes.resource.js";
import type { codeMassUpdateSchema } from "./code-mass-update.schema.js";
import { recordChange } from "../audit/record-change.js";

export const TYPEAHEAD_LIMIT = 100;

/** Code typeahead: the client's own codes (numbers above 0) matching a number or a description. */
export async function findCodeMatches(
  db: Database,
  tenant: TenantContext,
  query: string,
): Promise<Page<CodeOutput>> {
  const text = query.trim();
  const escaped = text.replace(/[\\%_]/g, (match) => `\\${match}`);
  const rows = await db
    .select()
    .from(codes)
    .where(
      and(
        eq(codes.clientId, tenant.clientId),
        gt(codes.code, 0),
        text === ""
          ? undefined
          : or(sql`${codes.code}::text like ${`${escaped}%`}`, ilike(codes.description, `%${escaped}%`)),
      ),
    )
    .orderBy(asc(codes.code))
    .limit(TYPEAHEAD_LIMIT);
  return { count: rows.length, results: rows.map(codesResource.toApi) };
}

/**
 * Mass edit: sets code_type and/or taxable on the selected codes, all or nothing. An empty
 * code_type is ignored; system codes and codes of other clients are refused.
 */
export async function massUpdateCodes(
  db: Database,
  tenant: TenantContext,
  input: z.output<typeof codeMassUpdateSchema>,
): Promise<Page<CodeOutput>> {
  const ids = [...new Set(input.ids)];
  return db.transaction(async (tx) => {
    const found = await tx
      .select()
      .from(codes)
      .where(and(eq(codes.clientId, tenant.clientId), inArray(codes.id, ids)))
      .for("update");
    if (found.length !== ids.length) throw notFound();
    if (found.some((row) => row.code < 0)) throw nonFieldError(SYSTEM_CODE_MESSAGE);
    const changes: Partial<typeof codes.$inferInsert> = {};
    if (input.code_type) changes.codeType = input.code_type;
    if (input.taxable !== undefined) changes.taxable = input.taxable;
    const rows =
      Object.keys(changes).length === 0
        ? await tx
            .select()
            .from(codes)
            .where(and(eq(codes.clientId, tenant.clientId), inArray(codes.id, ids)))
        : await tx
            .update(codes)
            .set(changes)
            .where(and(eq(codes.clientId, tenant.clientId), inArray(codes.id, ids)))
            .returning();
    const before = new Map(found.map((row) => [row.id, row]));
    for (const row of rows)
      await recordChange(tx, {
        clientId: tenant.clientId,
        action: "code.update",
        recordKind: "code",
        recordId: row.id,
        before: before.get(row.id) ?? null,
        after: row,
        fields: { omit: ["clientId", "id", "createdAt"] },
      });
    const results = rows.sort((a, b) => a.code - b.code).map(codesResource.toApi);
    return { count: results.length, results };
  });
}
