import { z } from "zod";

/** A group (route) of customers. */
export const groupInputSchema = z.object({
  route_name: z.string().trim().min(1).max(80),
});
export type GroupInput = z.infer<typeof groupInputSchema>;
