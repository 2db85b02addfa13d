import { CODE_TYPES, integerParam } from "@cyclebill/domain";
import { z } from "zod";

/** Mass edit of codes: the selected ids and the new code_type and/or taxable ("" code_type = leave as is). */
export const codeMassUpdateSchema = z.object({
  ids: z
    .array(integerParam({ min: 1 }))
    .min(1)
    .max(5000),
  code_type: z.union([z.enum(CODE_TYPES), z.literal("")]).optional(),
  taxable: z.boolean().optional(),
});
