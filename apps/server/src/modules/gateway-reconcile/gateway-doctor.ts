import { RECONCILIATION_DIFFERENCE_LABELS, type ReconciliationDifference } from "@cyclebill/domain";
import { eq } from "drizzle-orm";
import { businessToday } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { clients } from "../../db/tables.js";
import type { PaymentGateway } from "../payments/payment-gateway.js";
import { dayBefore } from "./gateway-reconcile-run.js";
import { clientsWithGatewayKey, reconcileDay } from "./reconcile-day.js";

// `npm run cli -- doctor --gateway`: the day's reconciliation of every client with a gateway key
// (or one), run now and printed; the operator's exit code says whether anything differs.

export type GatewayDoctorClient = {
  clientNo: number;
  outcome:
    | {
        kind: "done";
        gatewayCount: number;
        gatewayTotal: string;
        ledgerCount: number;
        ledgerTotal: string;
        differences: ReconciliationDifference[];
      }
    | { kind: "failed"; error: string };
};

export type GatewayDoctorReport =
  | { kind: "unknown_client"; clientNo: number }
  | { kind: "no_key"; clientNo: number }
  | { kind: "checked"; day: string; clients: GatewayDoctorClient[] };

export async function runGatewayDoctor(
  db: Database,
  gateway: PaymentGateway,
  options: { clientNo?: number; day?: string },
): Promise<GatewayDoctorReport> {
  const day = options.day ?? dayBefore(businessToday());
  let targets = await clientsWithGatewayKey(db);
  if (options.clientNo !== undefined) {
    const [client] = await db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.clientNo, options.clientNo));
    if (!client) return { kind: "unknown_client", clientNo: options.clientNo };
    targets = targets.filter((target) => target.id === client.id);
    if (targets.length === 0) return { kind: "no_key", clientNo: options.clientNo };
  }
  const checked: GatewayDoctorClient[] = [];
  for (const target of targets) {
    const outcome = await reconcileDay(db, gateway, { clientId: target.id, day });
    checked.push({
      clientNo: target.clientNo,
      outcome:
        outcome.kind === "failed"
          ? { kind: "failed", error: outcome.error }
          : {
              kind: "done",
              gatewayCount: outcome.gateway.count,
              gatewayTotal: outcome.gateway.total,
              ledgerCount: outcome.ledger.count,
              ledgerTotal: outcome.ledger.total,
              differences: outcome.differences,
            },
    });
  }
  return { kind: "checked", day, clients: checked };
}

/** Clean: every client checked, none with a difference. */
export function gatewayDoctorHealthy(report: GatewayDoctorReport): boolean {
  return (
    report.kind === "checked" &&
    report.clients.every(
      (client) => client.outcome.kind === "done" && client.outcome.differences.length === 0,
    )
  );
}

function differenceLine(difference: ReconciliationDifference): string {
  const ids = [
    difference.trans_id && `trans ${difference.trans_id}`,
    difference.attempt_id !== null && `attempt ${difference.attempt_id}`,
    difference.customer_id !== null && `customer ${difference.customer_id}`,
  ].filter(Boolean);
  return `  ${RECONCILIATION_DIFFERENCE_LABELS[difference.kind]}: ${ids.join(", ")}: ${difference.detail}`;
}

export function formatGatewayDoctorReport(report: GatewayDoctorReport): string {
  if (report.kind === "unknown_client") return `No client has the number ${report.clientNo}.`;
  if (report.kind === "no_key") return `Client ${report.clientNo} has no payment gateway key.`;
  if (report.clients.length === 0)
    return `No client has a payment gateway key; nothing to reconcile for ${report.day}.`;
  const lines: string[] = [];
  for (const client of report.clients) {
    const { outcome } = client;
    if (outcome.kind === "failed") {
      lines.push(`client ${client.clientNo}, ${report.day}: not reconciled: ${outcome.error}`);
      continue;
    }
    const totals = `BluePay settled ${outcome.gatewayCount} for ${outcome.gatewayTotal}; the ledger holds ${outcome.ledgerCount} for ${outcome.ledgerTotal}`;
    if (outcome.differences.length === 0)
      lines.push(`client ${client.clientNo}, ${report.day}: ${totals}; no differences.`);
    else {
      lines.push(
        `client ${client.clientNo}, ${report.day}: ${totals}; ${outcome.differences.length} differences:`,
      );
      lines.push(...outcome.differences.map(differenceLine));
    }
  }
  return lines.join("\n");
}
