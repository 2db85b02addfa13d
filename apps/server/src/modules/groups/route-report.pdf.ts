import { and, asc, eq, sql } from "drizzle-orm";
import { formatUsd, sumAmounts } from "@cyclebill/domain";
import type { Database } from "../../db/database.js";
import { clients, customers, routePlans, routes } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { notFound } from "../../http/errors.js";
import type { PdfFile } from "../codes/code-report.pdf.js";
import { renderTableReport } from "../reports/table-report.pdf.js";
import { businessToday } from "../../clock.js";

const statusLabels = { standard: "Standard", skip: "Skip", pause: "Pause" } as const;

/** The Group Report: the group's customers in stop order with processing status and balance. */
export async function renderRouteReport(
  db: Database,
  tenant: TenantContext,
  routeId: number,
): Promise<PdfFile> {
  const [group] = await db
    .select({ name: routes.routeName, clientName: clients.clientName })
    .from(routes)
    .innerJoin(clients, eq(clients.id, routes.clientId))
    .where(and(eq(routes.clientId, tenant.clientId), eq(routes.id, routeId)))
    .limit(1);
  if (!group) throw notFound();
  const members = await db
    .select({
      stop: routePlans.stop,
      customerNo: customers.customerNo,
      name: customers.customerName,
      address: sql<string>`concat_ws(', ', nullif(${customers.address1}, ''), nullif(${customers.city}, ''), nullif(${customers.state}, ''))`,
      flag: routePlans.billIndicatorFlag,
      deleted: customers.deleted,
      balance: sql<string>`${customers.totalBalance}::text`,
    })
    .from(routePlans)
    .innerJoin(
      customers,
      and(eq(customers.clientId, routePlans.clientId), eq(customers.id, routePlans.customerId)),
    )
    .where(and(eq(routePlans.clientId, tenant.clientId), eq(routePlans.routeId, routeId)))
    .orderBy(asc(routePlans.stop), asc(routePlans.id));
  const today = businessToday();
  const content = await renderTableReport({
    title: `Group Report: ${group.name}`,
    subtitle: [group.clientName, `${members.length} customers, as of ${today}`],
    columns: [
      { header: "Position", width: 50, align: "right" },
      { header: "Customer #", width: 62, align: "right" },
      { header: "Name", width: 150 },
      { header: "Address", width: 150 },
      { header: "Status", width: 50 },
      { header: "Balance", width: 70, align: "right" },
    ],
    rows: members.map((member) => [
      String(member.stop + 1),
      String(member.customerNo),
      member.name,
      member.address,
      // An archived customer takes nothing, whatever its processing status says.
      member.deleted ? "Archived" : statusLabels[member.flag],
      formatUsd(member.balance),
    ]),
    totals: ["", "", "Total", "", "", formatUsd(sumAmounts(members.map((member) => member.balance)))],
    emptyText: "This group has no customers yet.",
  });
  return { fileName: `Group Report ${routeId}.pdf`, content };
}
