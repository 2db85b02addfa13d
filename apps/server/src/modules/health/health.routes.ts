import { sql } from "drizzle-orm";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";

export function registerHealthRoutes(router: Router): void {
  defineRoute(router, {
    name: "getHealth",
    method: "GET",
    url: "/api/health/",
    summary: "Liveness and database check",
    tags: ["Platform"],
    access: "public",
    response: z.object({ status: z.literal("ok"), database: z.enum(["pglite", "postgres"]) }),
    handle: async () => {
      await router.deps.db.execute(sql`select 1`);
      return { status: "ok" as const, database: router.deps.config.database.kind };
    },
  });
}
