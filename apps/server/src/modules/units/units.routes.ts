import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import { listUnitsOfMeasure } from "./list-units.js";

export function registerUnitRoutes(router: Router): void {
  defineRoute(router, {
    name: "listUnitsOfMeasure",
    method: "GET",
    url: "/api/unitofmeasure",
    summary: "Units of measure (shared by every client)",
    tags: ["Units of measure"],
    access: "user",
    response: z.object({
      count: z.number(),
      results: z.array(z.object({ id: z.number(), name: z.string() })),
    }),
    handle: () => listUnitsOfMeasure(router.deps.db),
  });
}
