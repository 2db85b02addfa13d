import { and, asc, count, desc, eq, getTableColumns, type SQL } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import { parseOrdering, resolvePaging, type ListQuery, type Page } from "@cyclebill/domain";
import type { z } from "zod";
import { currentClock } from "../../clock.js";
import type { Database, Executor } from "../../db/database.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError, forbidden, nonFieldError, notFound } from "../../http/errors.js";
import { auditFieldName, type AuditValues } from "../audit/audit-changes.js";
import { recordChange } from "../audit/record-change.js";

/** A tenant-owned table: rows keyed by id inside their client. */
export type TenantTable = PgTable & { id: AnyPgColumn; clientId: AnyPgColumn };

/**
 * One tenant-owned resource served with the shared conventions: list with paging and
 * ordering, get, create, full update, delete, always inside the caller's client.
 */
export type TenantResource<TTable extends TenantTable, TInput, TOutput, TFilters = Record<string, never>> = {
  /** Path segment under /api/, e.g. "codes". */
  name: string;
  /** The record in operation names: { one: "Code", many: "Codes" } gives listCodes, getCode, … */
  operationNames: { one: string; many: string };
  tag: string;
  table: TTable;
  /** Body of POST and PUT (PUT takes the full body). */
  input: z.ZodType<TInput>;
  output: z.ZodType<TOutput>;
  /** Extra list filters parsed from the query string. */
  filters?: {
    schema: z.ZodType<TFilters> & { shape: z.ZodRawShape };
    conditions: (filters: TFilters) => SQL[];
  };
  orderingFields: Record<string, AnyPgColumn>;
  defaultOrdering: string;
  toValues: (input: TInput) => Partial<TTable["$inferInsert"]>;
  toApi: (row: TTable["$inferSelect"]) => TOutput;
  /** Adds what only the single-record read shows (e.g. a group's members). */
  withDetails?: (db: Executor, tenant: TenantContext, output: TOutput) => Promise<TOutput>;
  /** Who may create, update and delete; everyone in the tenant may read. */
  canWrite?: (tenant: TenantContext) => boolean;
  /** A reason the stored row may not be changed or deleted (e.g. system codes), or undefined. */
  protect?: (row: TTable["$inferSelect"]) => string | undefined;
  /** Business checks before a write (e.g. uniqueness with the spec's message). */
  validate?: (db: Executor, tenant: TenantContext, input: TInput, existingId: number | null) => Promise<void>;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds resources of every table type
export type AnyTenantResource = TenantResource<TenantTable, any, unknown, any>;

type Row<TTable extends PgTable> = TTable["$inferSelect"];

function scope(resource: AnyTenantResource, tenant: TenantContext, id?: number): SQL {
  const tenantCondition = eq(resource.table.clientId, tenant.clientId);
  return id === undefined ? tenantCondition : (and(tenantCondition, eq(resource.table.id, id)) as SQL);
}

function assertCanWrite(resource: AnyTenantResource, tenant: TenantContext): void {
  if (resource.canWrite && !resource.canWrite(tenant)) throw forbidden();
}

export async function listTenantRecords<TTable extends TenantTable, TInput, TOutput, TFilters>(
  db: Database,
  tenant: TenantContext,
  resource: TenantResource<TTable, TInput, TOutput, TFilters>,
  query: ListQuery,
  filters?: TFilters,
): Promise<Page<TOutput>> {
  const ordering = parseOrdering(
    query.ordering ?? resource.defaultOrdering,
    Object.keys(resource.orderingFields),
  );
  if (!ordering.ok) {
    throw fieldError(
      "ordering",
      `Unknown ordering field: ${ordering.unknown.join(", ")}. Allowed: ${Object.keys(resource.orderingFields).join(", ")}.`,
    );
  }
  const conditions = [
    scope(resource as AnyTenantResource, tenant),
    ...(resource.filters && filters !== undefined ? resource.filters.conditions(filters) : []),
  ];
  const where = and(...conditions);
  const { limit, offset } = resolvePaging(query);
  const orderBy = ordering.terms.map((term) => {
    const column = resource.orderingFields[term.field] as AnyPgColumn;
    return term.descending ? desc(column) : asc(column);
  });
  // The id breaks ties so that pages never repeat or skip a row.
  orderBy.push(asc(resource.table.id));
  const table = resource.table as PgTable;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(table)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(table).where(where),
  ]);
  return {
    count: Number(totals[0]?.total ?? 0),
    results: rows.map((row) => resource.toApi(row as Row<TTable>)),
  };
}

async function findRow<TTable extends TenantTable>(
  db: Executor,
  tenant: TenantContext,
  resource: TenantResource<TTable, unknown, unknown, unknown>,
  id: number,
  lock = false,
): Promise<Row<TTable>> {
  const query = db
    .select()
    .from(resource.table as PgTable)
    .where(scope(resource as AnyTenantResource, tenant, id))
    .limit(1);
  // Locked before a change, so the trail's "before" is what the change replaced.
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound();
  return row as Row<TTable>;
}

export async function getTenantRecord<TTable extends TenantTable, TInput, TOutput, TFilters>(
  db: Database,
  tenant: TenantContext,
  resource: TenantResource<TTable, TInput, TOutput, TFilters>,
  id: number,
): Promise<TOutput> {
  const row = await findRow(db, tenant, resource as TenantResource<TTable, unknown, unknown, unknown>, id);
  const output = resource.toApi(row);
  return resource.withDetails ? resource.withDetails(db, tenant, output) : output;
}

export async function createTenantRecord<TTable extends TenantTable, TInput, TOutput, TFilters>(
  db: Database,
  tenant: TenantContext,
  resource: TenantResource<TTable, TInput, TOutput, TFilters>,
  input: TInput,
): Promise<TOutput> {
  assertCanWrite(resource as AnyTenantResource, tenant);
  return db.transaction(async (tx) => {
    await resource.validate?.(tx, tenant, input, null);
    // Created by the app's clock, not the column's now(): production bills a recurring charge
    // from its created date, compared with business dates.
    const stamped = "createdAt" in getTableColumns(resource.table) ? { createdAt: currentClock().now() } : {};
    const values = {
      ...resource.toValues(input),
      ...stamped,
      clientId: tenant.clientId,
    } as TTable["$inferInsert"];
    const [row] = await tx
      .insert(resource.table as PgTable)
      .values(values)
      .returning();
    await auditTenantRecord(tx, resource as AnyTenantResource, "create", null, row as AuditValues);
    return resource.toApi(row as Row<TTable>);
  });
}

export async function updateTenantRecord<TTable extends TenantTable, TInput, TOutput, TFilters>(
  db: Database,
  tenant: TenantContext,
  resource: TenantResource<TTable, TInput, TOutput, TFilters>,
  id: number,
  input: TInput,
): Promise<TOutput> {
  assertCanWrite(resource as AnyTenantResource, tenant);
  return db.transaction(async (tx) => {
    const before = await assertChangeable(tx, tenant, resource as AnyTenantResource, id);
    await resource.validate?.(tx, tenant, input, id);
    const [row] = await tx
      .update(resource.table as PgTable)
      .set(resource.toValues(input) as Record<string, unknown>)
      .where(scope(resource as AnyTenantResource, tenant, id))
      .returning();
    if (!row) throw notFound();
    await auditTenantRecord(tx, resource as AnyTenantResource, "update", before, row as AuditValues);
    return resource.toApi(row as Row<TTable>);
  });
}

export async function deleteTenantRecord<TTable extends TenantTable, TInput, TOutput, TFilters>(
  db: Database,
  tenant: TenantContext,
  resource: TenantResource<TTable, TInput, TOutput, TFilters>,
  id: number,
): Promise<void> {
  assertCanWrite(resource as AnyTenantResource, tenant);
  await db.transaction(async (tx) => {
    const before = await assertChangeable(tx, tenant, resource as AnyTenantResource, id);
    await tx.delete(resource.table as PgTable).where(scope(resource as AnyTenantResource, tenant, id));
    await auditTenantRecord(tx, resource as AnyTenantResource, "delete", before, null);
  });
}

/** Before an update or delete: the row exists in the tenant (404) and is not protected (400). */
async function assertChangeable(
  tx: Executor,
  tenant: TenantContext,
  resource: AnyTenantResource,
  id: number,
): Promise<AuditValues> {
  const existing = await findRow(tx, tenant, resource, id, true);
  const reason = resource.protect?.(existing as never);
  if (reason) throw nonFieldError(reason);
  return existing as AuditValues;
}

/** The record kind a resource's rows have in the trail: its operation name in snake_case. */
function auditKindOf(resource: AnyTenantResource): string {
  const one = resource.operationNames.one;
  return auditFieldName(one.charAt(0).toLowerCase() + one.slice(1));
}

/** A generic resource's change in its client's trail, each field before and after. */
async function auditTenantRecord(
  tx: Executor,
  resource: AnyTenantResource,
  verb: "create" | "update" | "delete",
  before: AuditValues | null,
  after: AuditValues | null,
): Promise<void> {
  const record = after ?? before;
  if (!record) return;
  const kind = auditKindOf(resource);
  await recordChange(tx, {
    clientId: Number(record.clientId),
    action: `${kind}.${verb}`,
    recordKind: kind,
    recordId: String(record.id),
    customerId: typeof record.customerId === "number" ? record.customerId : null,
    before,
    after,
    fields: { omit: ["clientId", "id", "createdAt"] },
  });
}
