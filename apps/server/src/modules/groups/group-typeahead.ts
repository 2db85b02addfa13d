import { and, asc, eq, ilike } from "drizzle-orm";
import type { Page } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { routes } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { groupsResource, type GroupOutput } from "./groups.resource.js";

export async function findGroupMatches(
  db: Database,
  tenant: TenantContext,
  query: string,
): Promise<Page<GroupOutput>> {
  const text = query.trim().replace(/[\\%_]/g, (match) => `\\${match}`);
  const rows = await db
    .select()
    .from(routes)
    .where(
      and(
        eq(routes.clientId, tenant.clientId),
        text === "" ? undefined : ilike(routes.routeName, `%${text}%`),
      ),
    )
    .orderBy(asc(routes.routeName), asc(routes.id))
    .limit(100);
  return { count: rows.length, results: rows.map(groupsResource.toApi) };
}
