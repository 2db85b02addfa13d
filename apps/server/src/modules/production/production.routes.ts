import {
  reasonBodySchema,
  cycleParamsSchema,
  jobRunSchema,
  productionClientParamsSchema,
  productionClientPreviewSchema,
  productionClientQuerySchema,
  productionCustomerParamsSchema,
  productionCustomerPreviewSchema,
  productionCycleListSchema,
  productionCyclePreviewSchema,
  productionRunListQuerySchema,
  productionRunPageSchema,
  productionRunSchema,
  productionUndoQuerySchema,
  recordIdParamsSchema,
  runDateQuerySchema,
  startProductionRunSchema,
} from "@cyclebill/domain";
import { businessToday } from "../../clock.js";
import { defineRoute, type Router } from "../../http/router.js";
import { sendDownload } from "../../http/send-file.js";
import { renderPreviewStatementPdf } from "./preview-statement.pdf.js";
import { listCycles, previewClient, previewCustomer, previewCycle } from "./preview-production.js";
import { getProductionRun, listProductionRuns } from "./production-runs.js";
import { startProductionRun } from "./start-production.js";
import { PRODUCTION_UNDO_JOB, requestProductionUndo } from "./undo-production.js";

const tags = ["Production"];

/** Admin production: previews per cycle, client and customer; runs as jobs; run history. Admins only. */
export function registerProductionRoutes(router: Router): void {
  const { db, config, jobs } = router.deps;

  defineRoute(router, {
    name: "listProductionCycles",
    method: "GET",
    url: "/api/dailyproduction/",
    summary: "Cycles 1-28: how many clients each has and its last run",
    tags,
    access: "admin",
    response: productionCycleListSchema,
    handle: () => listCycles(db),
  });

  defineRoute(router, {
    name: "previewProductionCycle",
    method: "GET",
    url: "/api/dailyproduction/cycle/:n/",
    summary:
      "What a run of cycle n on run_date (default today; catch_up=true as the run's catch-up option) would do, per client; skipped clients and why",
    tags,
    access: "admin",
    params: cycleParamsSchema,
    query: runDateQuerySchema,
    response: productionCyclePreviewSchema,
    handle: ({ params, query }) =>
      previewCycle(db, params.n, query.run_date ?? businessToday(), { catchUp: query.catch_up }),
  });

  defineRoute(router, {
    name: "previewProductionClient",
    method: "GET",
    url: "/api/dailyproduction/client/:id/",
    summary: "One client's customers as a run on run_date would leave them (paged, by customer id)",
    tags,
    access: "admin",
    params: productionClientParamsSchema,
    query: productionClientQuerySchema,
    response: productionClientPreviewSchema,
    handle: ({ params, query }) =>
      previewClient(db, params.id, query.run_date ?? businessToday(), query, { catchUp: query.catch_up }),
  });

  defineRoute(router, {
    name: "previewProductionCustomer",
    method: "GET",
    url: "/api/dailyproduction/client/:id/customers/:customer_id/",
    summary: "One customer's figures, ageing and the lines a run on run_date would post",
    tags,
    access: "admin",
    params: productionCustomerParamsSchema,
    query: runDateQuerySchema,
    response: productionCustomerPreviewSchema,
    handle: ({ params, query }) =>
      previewCustomer(db, params.id, params.customer_id, query.run_date ?? businessToday(), {
        catchUp: query.catch_up,
      }),
  });

  defineRoute(router, {
    name: "previewProductionStatementPdf",
    method: "GET",
    url: "/api/dailyproduction/client/:id/customers/:customer_id/pdf/",
    summary:
      "The statement a run on run_date would produce for the customer, as a PDF marked preview (nothing is written)",
    tags,
    access: "admin",
    params: productionCustomerParamsSchema,
    query: runDateQuerySchema,
    produces: "application/pdf",
    handle: async ({ params, query, reply }) =>
      sendDownload(
        reply,
        await renderPreviewStatementPdf(
          db,
          params.id,
          params.customer_id,
          query.run_date ?? businessToday(),
          {
            catchUp: query.catch_up,
          },
        ),
        "application/pdf",
      ),
  });

  defineRoute(router, {
    name: "startProductionRun",
    method: "POST",
    url: "/api/dailyproduction/cycle/:n/",
    summary:
      "Start the run of cycle n (202 with the run); a second POST for the same cycle and date, or with a seen Idempotency-Key, answers the existing run",
    tags,
    access: "admin",
    params: cycleParamsSchema,
    body: startProductionRunSchema,
    response: productionRunSchema,
    successStatus: 202,
    handle: ({ params, body, auth, request }) => {
      const key = request.headers["idempotency-key"];
      return startProductionRun(
        db,
        auth.user,
        {
          cycle: params.n,
          runDate: body.run_date ?? businessToday(),
          clientIds: body.client_ids,
          catchUp: body.catch_up ?? false,
          idempotencyKey: typeof key === "string" && key !== "" ? key.slice(0, 200) : undefined,
          chunkSize: config.jobs.chunkSize,
        },
        async (tx, steps) => {
          for (const step of steps)
            await jobs.enqueue("production-run", step.payload, { executor: tx, priority: step.priority });
        },
      );
    },
  });

  defineRoute(router, {
    name: "listProductionRuns",
    method: "GET",
    url: "/api/productionruns/",
    summary: "Production runs, newest first: status, progress and figures",
    tags,
    access: "admin",
    query: productionRunListQuerySchema,
    response: productionRunPageSchema,
    handle: ({ query }) => listProductionRuns(db, query, config.dataDir),
  });

  defineRoute(router, {
    name: "undoProductionRun",
    method: "POST",
    url: "/api/productionruns/:id/undo/",
    summary:
      "Undo client_id's part of the run while none of it went out (202 with the undo job): its recurring charges, late fees, statements, pools and queued emails go and the client's billing dates come back; 409 with what went out once delivery started",
    tags,
    access: "admin",
    params: recordIdParamsSchema,
    query: productionUndoQuerySchema,
    body: reasonBodySchema,
    response: jobRunSchema,
    successStatus: 202,
    handle: ({ params, query, body, auth }) =>
      requestProductionUndo(
        db,
        auth.user,
        { cycleRunId: params.id, clientId: query.client_id, reason: body.reason ?? null },
        (tx, payload) => jobs.enqueue(PRODUCTION_UNDO_JOB, payload, { executor: tx }),
      ),
  });

  defineRoute(router, {
    name: "getProductionRun",
    method: "GET",
    url: "/api/productionruns/:id/",
    summary: "One production run: status (queued, running, done, failed), customers done of total, figures",
    tags,
    access: "admin",
    params: recordIdParamsSchema,
    response: productionRunSchema,
    handle: ({ params }) => getProductionRun(db, params.id, config.dataDir),
  });
}
