import { sql } from "drizzle-orm";
import { z } from "zod";
import { businessToday } from "../../clock.js";
import { defineRoute, type Router } from "../../http/router.js";

export function registerHealthRoutes(router: Router): void {
  defineRoute(router, {
    name: "getHealth",
    method: "GET",
    url: "/api/health/",
    summary: "Liveness and database check, with the server's business date (the provider's today)",
    tags: ["Platform"],
    access: "public",
    response: z.object({
      status: z.literal("ok"),
      database: z.enum(["pglite", "postgres"]),
      /** Today in the provider's time zone, from the app's one clock: what tests and screens date by. */
      business_date: z.string().describe("YYYY-MM-DD"),
    }),
    handle: async () => {
      await router.deps.db.execute(sql`select 1`);
      return {
        status: "ok" as const,
        database: router.deps.config.database.kind,
        business_date: businessToday(),
      };
    },
  });
}
