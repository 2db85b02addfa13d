import { and, eq, ne, type SQL } from "drizzle-orm";
import { CODE_TYPES, codeInputSchema, type CodeInput } from "@cyclebill/domain";
import { z } from "zod";
import { codes } from "../../db/tables.js";
import { fieldError } from "../../http/errors.js";
import type { TenantResource } from "../tenancy/tenant-records.js";

export const codeOutputSchema = z.object({
  id: z.number().int(),
  client: z.number().int(),
  code: z.number().int(),
  code_name: z.string(),
  description: z.string(),
  code_type: z.enum(CODE_TYPES),
  taxable: z.boolean(),
});
export type CodeOutput = z.infer<typeof codeOutputSchema>;

const codeFiltersSchema = z.looseObject({ code_type: z.enum(CODE_TYPES).optional() });
type CodeFilters = z.infer<typeof codeFiltersSchema>;

export const SYSTEM_CODE_MESSAGE = "System codes cannot be changed or deleted.";
export const DUPLICATE_CODE_MESSAGE = "A code with this number already exists.";

/** Bill codes. Negative numbers are system codes, made by the system and never edited here. */
export const codesResource: TenantResource<typeof codes, CodeInput, CodeOutput, CodeFilters> = {
  name: "codes",
  operationNames: { one: "Code", many: "Codes" },
  tag: "Bill codes",
  table: codes,
  input: codeInputSchema,
  output: codeOutputSchema,
  filters: {
    schema: codeFiltersSchema,
    conditions: (filters): SQL[] => (filters.code_type ? [eq(codes.codeType, filters.code_type)] : []),
  },
  orderingFields: {
    id: codes.id,
    code: codes.code,
    code_name: codes.codeName,
    description: codes.description,
    code_type: codes.codeType,
    taxable: codes.taxable,
  },
  defaultOrdering: "code",
  toValues: (input) => ({
    code: input.code,
    codeName: input.code_name,
    description: input.description,
    codeType: input.code_type,
    taxable: input.taxable,
  }),
  toApi: (row) => ({
    id: row.id,
    client: row.clientId,
    code: row.code,
    code_name: row.codeName,
    description: row.description,
    code_type: row.codeType,
    taxable: row.taxable,
  }),
  protect: (row) => (row.code < 0 ? SYSTEM_CODE_MESSAGE : undefined),
  validate: async (db, tenant, input, existingId) => {
    const clash = await db
      .select({ id: codes.id })
      .from(codes)
      .where(
        and(
          eq(codes.clientId, tenant.clientId),
          eq(codes.code, input.code),
          existingId === null ? undefined : ne(codes.id, existingId),
        ),
      )
      .limit(1);
    if (clash.length > 0) throw fieldError("code", DUPLICATE_CODE_MESSAGE);
  },
};
