import { and, eq, type SQL } from "drizzle-orm";
import {
  integerParam,
  multiplyRateByQuantity,
  type recurringChargeFieldsSchema,
  recurringChargeInputSchema,
  recurringStartDateProblem,
  RECURRING_FREQUENCIES,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { customers, recurringCharges } from "../../db/tables.js";
import type { TenantContext } from "../../http/auth-context.js";
import { fieldError } from "../../http/errors.js";
import type { TenantResource } from "../tenancy/tenant-records.js";
import { assertCustomerCodeUnit } from "./customer-children.js";

/** Refuses (400 on start_date) a start date before the customer's open date. */
async function assertStartDate(
  db: Executor,
  tenant: TenantContext,
  customerId: number,
  startDate: string | null | undefined,
): Promise<void> {
  if (!startDate) return;
  const [customer] = await db
    .select({ openDate: customers.openDate })
    .from(customers)
    .where(and(eq(customers.clientId, tenant.clientId), eq(customers.id, customerId)));
  const problem = customer ? recurringStartDateProblem(startDate, customer.openDate) : null;
  if (problem) throw fieldError("start_date", problem);
}

/** A recurring charge's columns from its API fields (its customer's id given apart). */
export function recurringChargeValues(
  input: z.output<typeof recurringChargeFieldsSchema>,
  customerId: number,
) {
  return {
    customerId,
    codeId: input.auto_code as number,
    description: input.description,
    rate: input.rate as string,
    quantity: String(input.quantity),
    amount: multiplyRateByQuantity(input.rate as string, String(input.quantity)),
    startMonth: input.start_month as number,
    endMonth: input.end_month as number,
    frequency: input.frequency,
    arrears: input.arrears,
    unitOfMeasureId: input.unitofmeasure,
    // Left out of an update: kept as it was; null: bills from the day it was entered.
    startDate: input.start_date,
  };
}

export const recurringChargeOutputSchema = z.object({
  id: z.number().int(),
  client: z.number().int(),
  customer: z.number().int(),
  auto_code: z.number().int(),
  code: z.number().int(),
  description: z.string(),
  rate: z.string(),
  quantity: z.number().int(),
  auto_amount: z.string(),
  start_month: z.number().int(),
  end_month: z.number().int(),
  last_month: z.number().int(),
  frequency: z.enum(RECURRING_FREQUENCIES),
  arrears: z.boolean(),
  finance_type: z.enum(["Advance", "Arrears"]),
  unitofmeasure: z.number().int().nullable(),
  last_billed_on: z.string().nullable(),
  /** The first day it may bill, as given (null: from the day it was entered). */
  start_date: z.string().nullable(),
  created: z.string(),
});

const filtersSchema = z.looseObject({ customer__id: integerParam({ min: 1 }).optional() });

/** Recurring charges ("auto amounts"), posted by the production run on their schedule. */
export const recurringChargesResource: TenantResource<
  typeof recurringCharges,
  z.output<typeof recurringChargeInputSchema>,
  z.output<typeof recurringChargeOutputSchema>,
  z.output<typeof filtersSchema>
> = {
  name: "autoamounts",
  operationNames: { one: "RecurringCharge", many: "RecurringCharges" },
  tag: "Recurring charges",
  table: recurringCharges,
  input: recurringChargeInputSchema,
  output: recurringChargeOutputSchema,
  filters: {
    schema: filtersSchema,
    conditions: (filters) => {
      const conditions: SQL[] = [];
      if (filters.customer__id) conditions.push(eq(recurringCharges.customerId, filters.customer__id));
      return conditions;
    },
  },
  orderingFields: {
    id: recurringCharges.id,
    start_month: recurringCharges.startMonth,
    created: recurringCharges.createdAt,
  },
  defaultOrdering: "id",
  toValues: (input) => recurringChargeValues(input, input.customer),
  toApi: (row) => ({
    id: row.id,
    client: row.clientId,
    customer: row.customerId,
    auto_code: row.codeId,
    code: row.codeId,
    description: row.description,
    rate: row.rate,
    quantity: Number.parseInt(row.quantity, 10),
    auto_amount: row.amount,
    start_month: row.startMonth,
    end_month: row.endMonth,
    last_month: row.endMonth,
    frequency: row.frequency,
    arrears: row.arrears,
    finance_type: row.arrears ? "Arrears" : "Advance",
    unitofmeasure: row.unitOfMeasureId,
    last_billed_on: row.lastBilledOn,
    start_date: row.startDate,
    created: row.createdAt.toISOString(),
  }),
  validate: async (db, tenant, input) => {
    await assertCustomerCodeUnit(db, tenant, {
      customerId: input.customer,
      codeId: input.auto_code as number,
      unitId: input.unitofmeasure,
      codeField: "auto_code",
    });
    await assertStartDate(db, tenant, input.customer, input.start_date);
  },
};
