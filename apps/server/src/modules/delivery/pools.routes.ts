import {
  poolListQuerySchema,
  poolNameParamsSchema,
  poolPageSchema,
  poolSchema,
  recordIdParamsSchema,
} from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { deletePool, getPool, listPools, openPoolDownload } from "./pools.js";
import { rebuildRunPools } from "./rebuild-pools.js";

const tags = ["Pools"];

/** Print pools of production runs: list, one, the zip download, delete. Admins only. */
export function registerPoolRoutes(router: Router): void {
  const { db, config, jobs } = router.deps;

  defineRoute(router, {
    name: "listPools",
    method: "GET",
    url: "/api/pools/",
    summary:
      "Print pools, newest first, with counts (statements, pages), state (building, ready, failed) and progress",
    tags,
    access: "admin",
    query: poolListQuerySchema,
    response: poolPageSchema,
    handle: ({ query }) => listPools(db, query),
  });

  defineRoute(router, {
    name: "getPool",
    method: "GET",
    url: "/api/pools/:name/",
    summary: "One pool, by name or id",
    tags,
    access: "admin",
    params: poolNameParamsSchema,
    response: poolSchema,
    handle: ({ params }) => getPool(db, params.name),
  });

  defineRoute(router, {
    name: "deletePool",
    method: "DELETE",
    url: "/api/pools/:name/",
    summary: "Remove a pool and its files; its statements and the ledger stay as they are",
    tags,
    access: "admin",
    params: poolNameParamsSchema,
    successStatus: 204,
    handle: async ({ params }) => {
      await deletePool(db, config.dataDir, params.name);
    },
  });

  defineRoute(router, {
    name: "downloadPool",
    alsoAnswers: [409],
    method: "GET",
    url: "/api/dailyproduction/download/pool/:name/",
    summary:
      "The pool's zip {pool_name}.zip: one merged print-ready PDF in delivery order and a manifest CSV; the first download records the pool as gone out, so its run can no longer be undone (409 while building or failed; 404 when its zip is missing, to rebuild, or its run was undone)",
    tags,
    access: "admin",
    params: poolNameParamsSchema,
    produces: "application/zip",
    handle: async ({ params, reply }) => {
      const download = await openPoolDownload(db, config.dataDir, params.name);
      const ascii = download.fileName.replace(/[^\x20-\x7e]/g, "_").replace(/"/g, "'");
      // The zip was opened before anything is sent, so a missing one was a clean 404 above.
      return reply
        .header("content-length", download.bytes)
        .header("content-type", "application/zip")
        .header("content-disposition", `attachment; filename="${ascii}"`)
        .header("cache-control", "no-store")
        .send(download.stream);
    },
  });

  defineRoute(router, {
    name: "rebuildRunPools",
    method: "POST",
    url: "/api/productionruns/:id/rebuild_pools/",
    summary:
      "Rebuild the run's failed, deleted and missing (ready without its zip) pools from its statements (202 with the pools queued to build); 409 when every pool is ready or building",
    tags,
    access: "admin",
    params: recordIdParamsSchema,
    response: poolPageSchema,
    successStatus: 202,
    handle: ({ params }) =>
      rebuildRunPools(db, config.dataDir, params.id, async (tx, queued) => {
        for (const job of queued) await jobs.enqueue(job.name, job.payload, { executor: tx });
      }),
  });
}
