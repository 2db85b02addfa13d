import { and, asc, count, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { parseOrdering, resolvePaging, type ListQuery, type Page } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { clients } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { fieldError, notFound } from "../../http/errors.js";
import { clientToApi, type ClientOutput } from "./client-output.js";

const orderingFields = {
  id: clients.id,
  client_no: clients.clientNo,
  client_name: clients.clientName,
  city: clients.city,
  state: clients.state,
  status_code: clients.statusCode,
  normal_cycle: clients.normalCycle,
} as const;

/** Admins see every client; anyone else sees only their own. */
function visibleTo(auth: AuthContext): SQL | undefined {
  if (auth.user.isAdmin) return undefined;
  return eq(clients.id, auth.user.clientId ?? -1);
}

export async function listClients(
  db: Database,
  auth: AuthContext,
  query: ListQuery & { query?: string },
): Promise<Page<ClientOutput>> {
  const ordering = parseOrdering(query.ordering ?? "client_name", Object.keys(orderingFields));
  if (!ordering.ok) {
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${ordering.unknown.join(", ")}. Allowed: ${Object.keys(orderingFields).join(", ")}.`,
    );
  }
  const text = query.query?.trim() ?? "";
  const search =
    text === ""
      ? undefined
      : or(
          ilike(clients.clientName, `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`),
          sql`${clients.clientNo}::text like ${`${text.replace(/[\\%_]/g, "")}%`}`,
        );
  const where = and(visibleTo(auth), search);
  const { limit, offset } = resolvePaging(query);
  const orderBy = ordering.terms.map((term) => {
    const column = orderingFields[term.field as keyof typeof orderingFields];
    return term.descending ? desc(column) : asc(column);
  });
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(clients)
      .where(where)
      .orderBy(...orderBy, asc(clients.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(clients).where(where),
  ]);
  return { count: totals[0]?.total ?? 0, results: rows.map(clientToApi) };
}

export async function getClient(db: Database, auth: AuthContext, id: number): Promise<ClientOutput> {
  const [row] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.id, id), visibleTo(auth)))
    .limit(1);
  if (!row) throw notFound();
  return clientToApi(row);
}
