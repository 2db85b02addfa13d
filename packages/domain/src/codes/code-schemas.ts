import { z } from "zod";
import { asOneLine } from "../api/field-schemas.js";
import { integerParam } from "../api/list-query.js";
import { CODE_TYPES } from "./code-types.js";

export const DESCRIPTION_MAX_LENGTH = 60;
export const TRANSACTION_DESCRIPTION_TOO_LONG =
  "Transaction description is too long. Please make sure it is under 60 characters to appear on the bill correctly.";

/** A bill code as staff enter it; system codes (negative numbers) are created by the system only. */
export const codeInputSchema = z.object({
  code: integerParam({ min: 0, max: 999_999 }),
  code_name: z.string().overwrite(asOneLine).trim().max(60).default(""),
  description: z.string().trim().max(DESCRIPTION_MAX_LENGTH, TRANSACTION_DESCRIPTION_TOO_LONG).default(""),
  code_type: z.enum(CODE_TYPES),
  taxable: z.boolean().default(false),
});
export type CodeInput = z.infer<typeof codeInputSchema>;
