import {
  clientIdParamsSchema,
  cycleParamsSchema,
  productionHoldListSchema,
  productionHoldSchema,
  productionScheduleListSchema,
  productionScheduleSchema,
  recordIdParamsSchema,
  scheduledCycleListSchema,
  scheduledCycleSchema,
  setProductionHoldSchema,
  setProductionScheduleSchema,
} from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import type { EnqueueProductionSteps } from "./run-production.js";
import { approveScheduledRun, checkSchedules, listScheduledCycles } from "./scheduled-runs.js";
import {
  clearHold,
  deleteSchedule,
  listHolds,
  listSchedules,
  setHold,
  setSchedule,
} from "./schedule-settings.js";

const tags = ["Production"];

/** Scheduled cycles: each cycle day's time and approval, held clients, and today's scheduled runs. Admins only. */
export function registerScheduleRoutes(router: Router): void {
  const { db, config, jobs } = router.deps;
  const enqueue: EnqueueProductionSteps = async (tx, steps) => {
    for (const step of steps)
      await jobs.enqueue("production-run", step.payload, { executor: tx, priority: step.priority });
  };
  // Read when a request comes: describing the API (no config) registers the routes too.
  const starter = () => ({ chunkSize: config.jobs.chunkSize, enqueue });

  defineRoute(router, {
    name: "listProductionSchedules",
    method: "GET",
    url: "/api/production/schedules/",
    summary:
      "Each scheduled cycle day: its time of day (in BILLING_TIME_ZONE) and whether it waits for approval",
    tags,
    access: "admin",
    response: productionScheduleListSchema,
    handle: () => listSchedules(db),
  });

  defineRoute(router, {
    name: "setProductionSchedule",
    method: "PUT",
    url: "/api/production/schedules/:n/",
    summary: "Set when cycle n runs by itself on its day, and whether its preview waits for approval",
    tags,
    access: "admin",
    params: cycleParamsSchema,
    body: setProductionScheduleSchema,
    response: productionScheduleSchema,
    handle: ({ params, body, auth }) => setSchedule(db, auth.user, params.n, body),
  });

  defineRoute(router, {
    name: "deleteProductionSchedule",
    method: "DELETE",
    url: "/api/production/schedules/:n/",
    summary: "Stop cycle n from running by itself (runs already started go on)",
    tags,
    access: "admin",
    params: cycleParamsSchema,
    successStatus: 204,
    handle: async ({ params }) => {
      await deleteSchedule(db, params.n);
    },
  });

  defineRoute(router, {
    name: "listProductionHolds",
    method: "GET",
    url: "/api/production/holds/",
    summary: "Clients held out of scheduled runs, with why",
    tags,
    access: "admin",
    response: productionHoldListSchema,
    handle: () => listHolds(db),
  });

  defineRoute(router, {
    name: "setProductionHold",
    method: "PUT",
    url: "/api/production/holds/:client_id/",
    summary: "Hold a client out of scheduled runs, with a reason (a run started by hand still bills it)",
    tags,
    access: "admin",
    params: clientIdParamsSchema,
    body: setProductionHoldSchema,
    response: productionHoldSchema,
    handle: ({ params, body, auth }) => setHold(db, auth.user, params.client_id, body.reason),
  });

  defineRoute(router, {
    name: "clearProductionHold",
    method: "DELETE",
    url: "/api/production/holds/:client_id/",
    summary: "Let a held client's scheduled runs bill it again",
    tags,
    access: "admin",
    params: clientIdParamsSchema,
    successStatus: 204,
    handle: async ({ params }) => {
      await clearHold(db, params.client_id);
    },
  });

  defineRoute(router, {
    name: "listScheduledCycles",
    method: "GET",
    url: "/api/production/scheduled/",
    summary:
      "Today's scheduled cycles and their state (due, waiting_approval, running, done, failed, held), and earlier runs still waiting for approval",
    tags,
    access: "admin",
    response: scheduledCycleListSchema,
    handle: () => listScheduledCycles(db),
  });

  defineRoute(router, {
    name: "checkProductionSchedules",
    method: "POST",
    url: "/api/production/scheduled/check/",
    summary: "Start (or hold for approval) what is due now by the schedules, as the minute's check does",
    tags,
    access: "admin",
    response: scheduledCycleListSchema,
    handle: async () => {
      await checkSchedules(db, starter());
      return listScheduledCycles(db);
    },
  });

  defineRoute(router, {
    name: "approveScheduledRun",
    method: "POST",
    url: "/api/production/scheduled/:id/approve/",
    summary: "Approve a scheduled run held for approval: it starts as a run started by hand does",
    tags,
    access: "admin",
    params: recordIdParamsSchema,
    response: scheduledCycleSchema,
    handle: ({ params, auth }) => approveScheduledRun(db, auth.user, params.id, starter()),
  });
}
