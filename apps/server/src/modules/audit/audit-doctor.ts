import { eq } from "drizzle-orm";
import type { Database } from "../../db/database.js";
import { clients } from "../../db/tables.js";
import { verifyAuditTrail, type AuditVerification } from "./verify-audit.js";

export function formatAuditReport(report: AuditVerification): string {
  const lines = [
    report.mismatches.length === 0
      ? `The audit trail holds: ${String(report.rows)} rows in ${String(report.chains)} chains, none changed or removed.`
      : `The audit trail is broken (${String(report.mismatches.length)} finding${report.mismatches.length === 1 ? "" : "s"}):`,
    ...report.mismatches.map((mismatch) => `  ${mismatch}`),
    // Kept outside the database, the heads show on the next check whether rows were cut from an end.
    "Chain heads (client, row, hash):",
    ...report.heads.map(
      (head) =>
        `  ${head.clientId === 0 ? "provider" : String(head.clientId)} ${String(head.seq)} ${head.hash}`,
    ),
  ];
  return lines.join("\n");
}

/** `npm run cli -- doctor --audit [--client N]`: every chain, or one client's, proved. */
export async function runAuditDoctor(
  db: Database,
  clientNo: number | undefined,
): Promise<{ ok: boolean; text: string }> {
  let clientId: number | undefined;
  if (clientNo !== undefined) {
    const [client] = await db.select({ id: clients.id }).from(clients).where(eq(clients.clientNo, clientNo));
    if (!client) return { ok: false, text: `No client has the number ${String(clientNo)}.` };
    clientId = client.id;
  }
  const report = await verifyAuditTrail(db, clientId);
  return { ok: report.mismatches.length === 0, text: formatAuditReport(report) };
}
