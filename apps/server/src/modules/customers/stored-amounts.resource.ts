import { eq, type SQL } from "drizzle-orm";
import {
  integerParam,
  multiplyRateByQuantity,
  type storedAmountFieldsSchema,
  storedAmountInputSchema,
  toQuantity,
} from "@cyclebill/domain";
import { z } from "zod";
import { storedAmounts } from "../../db/tables.js";
import type { TenantResource } from "../tenancy/tenant-records.js";
import { assertCustomerCodeUnit } from "./customer-children.js";

/** A stored amount's columns from its API fields (its customer's id given apart). */
export function storedAmountValues(input: z.output<typeof storedAmountFieldsSchema>, customerId: number) {
  return {
    customerId,
    codeId: input.storedCode as number,
    description: input.description,
    rate: input.rate,
    quantity: input.quantity,
    unitOfMeasureId: input.unitofmeasure,
    amount: multiplyRateByQuantity(input.rate, input.quantity),
  };
}

export const storedAmountOutputSchema = z.object({
  id: z.number().int(),
  client: z.number().int(),
  customer: z.number().int(),
  storedCode: z.number().int(),
  code: z.number().int(),
  description: z.string(),
  rate: z.string(),
  quantity: z.string(),
  unitofmeasure: z.number().int().nullable(),
  unit: z.number().int().nullable(),
  storedAmount: z.string(),
  created: z.string(),
});

const filtersSchema = z.looseObject({
  customer__id: integerParam({ min: 1 }).optional(),
  storedCode: integerParam({ min: 1 }).optional(),
});

/** Stored amounts: per customer and code, the description, rate and quantity to offer when entering transactions. */
export const storedAmountsResource: TenantResource<
  typeof storedAmounts,
  z.output<typeof storedAmountInputSchema>,
  z.output<typeof storedAmountOutputSchema>,
  z.output<typeof filtersSchema>
> = {
  name: "storedamounts",
  operationNames: { one: "StoredAmount", many: "StoredAmounts" },
  tag: "Stored amounts",
  table: storedAmounts,
  input: storedAmountInputSchema,
  output: storedAmountOutputSchema,
  filters: {
    schema: filtersSchema,
    conditions: (filters) => {
      const conditions: SQL[] = [];
      if (filters.customer__id) conditions.push(eq(storedAmounts.customerId, filters.customer__id));
      if (filters.storedCode) conditions.push(eq(storedAmounts.codeId, filters.storedCode));
      return conditions;
    },
  },
  orderingFields: {
    id: storedAmounts.id,
    rate: storedAmounts.rate,
    description: storedAmounts.description,
    created: storedAmounts.createdAt,
  },
  defaultOrdering: "id",
  toValues: (input) => storedAmountValues(input, input.customer),
  toApi: (row) => ({
    id: row.id,
    client: row.clientId,
    customer: row.customerId,
    storedCode: row.codeId,
    code: row.codeId,
    description: row.description,
    rate: row.rate,
    quantity: toQuantity(row.quantity),
    unitofmeasure: row.unitOfMeasureId,
    unit: row.unitOfMeasureId,
    storedAmount: row.amount,
    created: row.createdAt.toISOString(),
  }),
  validate: (db, tenant, input) =>
    assertCustomerCodeUnit(db, tenant, {
      customerId: input.customer,
      codeId: input.storedCode as number,
      unitId: input.unitofmeasure,
      codeField: "storedCode",
    }),
};
