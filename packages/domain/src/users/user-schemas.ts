import { z } from "zod";
import { asOneLine, emailField } from "../api/field-schemas.js";

/** The Add User form and POST /api/users/ body; PUT takes the same full body. */
export const userInputSchema = z.object({
  firstName: z.string().overwrite(asOneLine).trim().min(1).max(80),
  lastName: z.string().overwrite(asOneLine).trim().min(1).max(80),
  email: emailField(),
  isStaff: z.boolean().default(true),
  is_active: z.boolean().default(true),
});
export type UserInput = z.input<typeof userInputSchema>;
