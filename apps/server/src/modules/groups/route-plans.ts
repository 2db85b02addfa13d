import { and, asc, eq, inArray, sql, type SQL } from "drizzle-orm";
import {
  archiveState,
  placeMember,
  removeMember,
  resolveAddStop,
  resolveMoveStop,
  type Page,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database, Executor } from "../../db/database.js";
import { billIndicatorFlags, customers, routePlans, routes } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, nonFieldError, notFound } from "../../http/errors.js";
import { assertClientCustomer } from "../tenancy/tenant-refs.js";
import { recordChange } from "../audit/record-change.js";

export const routePlanOutputSchema = z.object({
  routeplan_id: z.number().int(),
  id: z.number().int(),
  route: z.number().int(),
  route_name: z.string(),
  customer: z.number().int(),
  customer_no: z.number().int(),
  customer_label: z.string(),
  client_id: z.number().int(),
  client: z.number().int(),
  stop: z.number().int().describe("0-based; every change renumbers the group from 0"),
  position: z.number().int().describe("1-based, as users see it"),
  bill_indicator_flag: z.enum(billIndicatorFlags),
  archive_state: z
    .enum(["active", "delete-when-zero", "delete-when-zero-keep-billing", "archived"])
    .describe("The customer's archive state: an archived member takes no transactions"),
});
export type RoutePlanOutput = z.infer<typeof routePlanOutputSchema>;

export const ALREADY_IN_GROUP_MESSAGE = "This customer is already in the group.";

const selection = {
  id: routePlans.id,
  routeId: routePlans.routeId,
  routeName: routes.routeName,
  customerId: routePlans.customerId,
  customerNo: customers.customerNo,
  customerName: customers.customerName,
  clientId: routePlans.clientId,
  stop: routePlans.stop,
  billIndicatorFlag: routePlans.billIndicatorFlag,
  deleted: customers.deleted,
  deleteFlag: customers.deleteFlag,
};

// Column data types lose nullability here, so the nullable column is typed by hand.
type Selected = Omit<{ [K in keyof typeof selection]: (typeof selection)[K]["_"]["data"] }, "deleteFlag"> & {
  deleteFlag: string | null;
};

function toApi(row: Selected): RoutePlanOutput {
  return {
    routeplan_id: row.id,
    id: row.id,
    route: row.routeId,
    route_name: row.routeName,
    customer: row.customerId,
    customer_no: row.customerNo,
    customer_label: `${row.customerNo} ${row.customerName}`.trim(),
    client_id: row.clientId,
    client: row.clientId,
    stop: row.stop,
    position: row.stop + 1,
    bill_indicator_flag: row.billIndicatorFlag,
    archive_state: archiveState(row),
  };
}

function selectPlans(db: Executor, tenant: TenantContext, where: SQL | undefined) {
  return db
    .select(selection)
    .from(routePlans)
    .innerJoin(routes, and(eq(routes.clientId, routePlans.clientId), eq(routes.id, routePlans.routeId)))
    .innerJoin(
      customers,
      and(eq(customers.clientId, routePlans.clientId), eq(customers.id, routePlans.customerId)),
    )
    .where(and(eq(routePlans.clientId, tenant.clientId), where))
    .orderBy(asc(routes.routeName), asc(routePlans.routeId), asc(routePlans.stop), asc(routePlans.id));
}

export type RoutePlanFilters = { customerId?: number; routeId?: number; ids?: number[] };

/** Route plans by customer, by group, or by a list of ids. */
export async function listRoutePlans(
  db: Database,
  tenant: TenantContext,
  filters: RoutePlanFilters,
): Promise<Page<RoutePlanOutput>> {
  const rows = await selectPlans(
    db,
    tenant,
    and(
      filters.customerId === undefined ? undefined : eq(routePlans.customerId, filters.customerId),
      filters.routeId === undefined ? undefined : eq(routePlans.routeId, filters.routeId),
      filters.ids === undefined
        ? undefined
        : inArray(routePlans.id, filters.ids.length > 0 ? filters.ids : [-1]),
    ),
  );
  return { count: rows.length, results: rows.map(toApi) };
}

export async function getRoutePlan(
  db: Database,
  tenant: TenantContext,
  id: number,
): Promise<RoutePlanOutput> {
  return readPlan(db, tenant, id);
}

/** A group's members in stop order. */
export async function groupMembers(
  db: Executor,
  tenant: TenantContext,
  routeId: number,
): Promise<RoutePlanOutput[]> {
  const rows = await selectPlans(db, tenant, eq(routePlans.routeId, routeId));
  return rows.map(toApi);
}

/** Locks the group so concurrent membership changes apply one after another. */
async function lockGroup(
  tx: Executor,
  tenant: TenantContext,
  routeId: number,
  field = "route",
): Promise<void> {
  const [group] = await tx
    .select({ id: routes.id })
    .from(routes)
    .where(and(eq(routes.clientId, tenant.clientId), eq(routes.id, routeId)))
    .for("update")
    .limit(1);
  if (!group) throw fieldError(field, "Invalid group - object does not exist.");
}

async function memberOrder(tx: Executor, tenant: TenantContext, routeId: number): Promise<number[]> {
  const rows = await tx
    .select({ id: routePlans.id })
    .from(routePlans)
    .where(and(eq(routePlans.clientId, tenant.clientId), eq(routePlans.routeId, routeId)))
    .orderBy(asc(routePlans.stop), asc(routePlans.id));
  return rows.map((row) => row.id);
}

/** Writes stops 0..n-1 in one statement. */
async function writeStops(tx: Executor, tenant: TenantContext, order: readonly number[]): Promise<void> {
  if (order.length === 0) return;
  const values = sql.join(
    order.map((id, stop) => sql`(${id}::bigint, ${stop}::int)`),
    sql`, `,
  );
  await tx.execute(sql`
    update route_plans as rp set stop = v.stop
    from (values ${values}) as v(id, stop)
    where rp.client_id = ${tenant.clientId} and rp.id = v.id and rp.stop <> v.stop`);
}

export type RoutePlanInput = {
  route: number;
  customer: number;
  stop?: unknown;
  bill_indicator_flag: (typeof billIndicatorFlags)[number];
};

/** Refuses to put a customer in a group it is already in. */
async function assertNotInGroup(tx: Executor, tenant: TenantContext, input: RoutePlanInput): Promise<void> {
  const [existing] = await tx
    .select({ id: routePlans.id })
    .from(routePlans)
    .where(
      and(
        eq(routePlans.clientId, tenant.clientId),
        eq(routePlans.routeId, input.route),
        eq(routePlans.customerId, input.customer),
      ),
    )
    .limit(1);
  if (existing) throw nonFieldError(ALREADY_IN_GROUP_MESSAGE);
}

function planScope(tenant: TenantContext, id: number): SQL | undefined {
  return and(eq(routePlans.clientId, tenant.clientId), eq(routePlans.id, id));
}

async function findPlan(tx: Executor, tenant: TenantContext, id: number) {
  const [plan] = await tx.select().from(routePlans).where(planScope(tenant, id)).limit(1);
  if (!plan) throw notFound();
  return plan;
}

async function readPlan(tx: Executor, tenant: TenantContext, id: number): Promise<RoutePlanOutput> {
  const [row] = await selectPlans(tx, tenant, eq(routePlans.id, id));
  if (!row) throw notFound();
  return toApi(row);
}

/** A membership's change in the client's trail: its group, position and processing status. */
async function auditRoutePlan(
  tx: Executor,
  verb: "create" | "update" | "delete",
  before: RoutePlanOutput | null,
  after: RoutePlanOutput | null,
): Promise<void> {
  const plan = after ?? before;
  if (!plan) return;
  const values = (row: RoutePlanOutput | null) =>
    row && {
      group: `${row.route} ${row.route_name}`,
      customer: row.customer_label,
      position: row.position,
      bill_indicator_flag: row.bill_indicator_flag,
    };
  await recordChange(tx, {
    clientId: plan.client_id,
    action: `route_plan.${verb}`,
    recordKind: "route_plan",
    recordId: plan.id,
    customerId: plan.customer,
    before: values(before),
    after: values(after),
  });
}

/** Adds a customer to a group at a stop (the end when none is given), renumbering the group. */
export async function addRoutePlan(
  db: Database,
  tenant: TenantContext,
  input: RoutePlanInput,
): Promise<RoutePlanOutput> {
  return db.transaction(async (tx) => {
    await lockGroup(tx, tenant, input.route);
    await assertClientCustomer(tx, tenant.clientId, input.customer);
    const order = await memberOrder(tx, tenant, input.route);
    await assertNotInGroup(tx, tenant, input);
    const stop = resolveAddStop(input.stop, order.length);
    const [created] = await tx
      .insert(routePlans)
      .values({
        clientId: tenant.clientId,
        routeId: input.route,
        customerId: input.customer,
        // Placed past the end first; the renumbering below puts it where it belongs.
        stop: order.length,
        billIndicatorFlag: input.bill_indicator_flag,
      })
      .returning({ id: routePlans.id });
    if (!created) throw new Error("route plan not created");
    await writeStops(tx, tenant, placeMember(order, created.id, stop));
    const plan = await readPlan(tx, tenant, created.id);
    await auditRoutePlan(tx, "create", null, plan);
    return plan;
  });
}

/** Moves a member (within its group or to another group) and sets its processing status. */
export async function updateRoutePlan(
  db: Database,
  tenant: TenantContext,
  id: number,
  input: RoutePlanInput,
): Promise<RoutePlanOutput> {
  return db.transaction(async (tx) => {
    const plan = await findPlan(tx, tenant, id);
    const before = await readPlan(tx, tenant, id);
    if (plan.customerId !== input.customer)
      throw fieldError("customer", "A route plan's customer cannot change.");
    // Lock both groups in id order, so two opposite moves cannot deadlock.
    for (const routeId of [...new Set([plan.routeId, input.route])].sort((a, b) => a - b)) {
      await lockGroup(tx, tenant, routeId);
    }
    if (input.route === plan.routeId) {
      const order = await memberOrder(tx, tenant, plan.routeId);
      await writeStops(tx, tenant, placeMember(order, id, resolveMoveStop(input.stop, order.length)));
    } else {
      const target = await memberOrder(tx, tenant, input.route);
      await assertNotInGroup(tx, tenant, input);
      await tx
        .update(routePlans)
        .set({ routeId: input.route, stop: target.length })
        .where(planScope(tenant, id));
      await writeStops(tx, tenant, removeMember(await memberOrder(tx, tenant, plan.routeId), id));
      await writeStops(tx, tenant, placeMember(target, id, resolveAddStop(input.stop, target.length)));
    }
    await tx
      .update(routePlans)
      .set({ billIndicatorFlag: input.bill_indicator_flag })
      .where(planScope(tenant, id));
    const after = await readPlan(tx, tenant, id);
    await auditRoutePlan(tx, "update", before, after);
    return after;
  });
}

/** Removes a customer from a group and closes the gap. */
export async function deleteRoutePlan(db: Database, tenant: TenantContext, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const plan = await findPlan(tx, tenant, id);
    await lockGroup(tx, tenant, plan.routeId);
    await auditRoutePlan(tx, "delete", await readPlan(tx, tenant, id), null);
    await tx.delete(routePlans).where(planScope(tenant, id));
    await writeStops(tx, tenant, await memberOrder(tx, tenant, plan.routeId));
  });
}
