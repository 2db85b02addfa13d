import { count, eq } from "drizzle-orm";
import { clientHoldings, type ClientHoldings } from "@cyclebill/domain";
import type { Executor } from "../../db/database.js";
import { clients, customers, paymentAttempts, statements, transactions } from "../../db/tables.js";
import type { AuthContext } from "../../http/auth-context.js";
import { forbidden, notFound } from "../../http/errors.js";

/** What the client holds (admins): the delete dialog shows it before its button. */
export async function readClientHoldings(db: Executor, clientId: number): Promise<ClientHoldings | null> {
  const [client] = await db
    .select({ name: clients.clientName })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  if (!client) return null;
  const total = async (
    table: typeof customers | typeof transactions | typeof statements | typeof paymentAttempts,
  ) => {
    const [row] = await db.select({ total: count() }).from(table).where(eq(table.clientId, clientId));
    return Number(row?.total ?? 0);
  };
  return clientHoldings(client.name, {
    customers: await total(customers),
    ledger_entries: await total(transactions),
    statements: await total(statements),
    payments: await total(paymentAttempts),
  });
}

export async function getClientHoldings(
  db: Executor,
  auth: AuthContext,
  id: number,
): Promise<ClientHoldings> {
  if (!auth.user.isAdmin) throw forbidden("Only the provider's admins delete clients.");
  const holdings = await readClientHoldings(db, id);
  if (!holdings) throw notFound();
  return holdings;
}
