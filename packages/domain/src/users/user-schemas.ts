import { z } from "zod";
import { asOneLine } from "../api/field-schemas.js";

/** The Add User form and POST /api/users/ body; PUT takes the same full body. */
export const userInputSchema = z.object({
  firstName: z.string().overwrite(asOneLine).trim().min(1).max(80),
  lastName: z.string().overwrite(asOneLine).trim().min(1).max(80),
  email: z.string().trim().min(1).max(254).pipe(z.email("Enter a valid email address.")),
  isStaff: z.boolean().default(true),
  is_active: z.boolean().default(true),
});
export type UserInput = z.input<typeof userInputSchema>;
