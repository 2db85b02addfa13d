import { z } from "zod";

const bodyClientSchema = z.object({ client_id: z.number().int().positive().optional() }).catch({});

/** Clients of the old API name the tenant in the body as client_id; the query wins when both are given. */
export function clientIdInBody(body: unknown): number | undefined {
  return bodyClientSchema.parse(body ?? {}).client_id;
}
