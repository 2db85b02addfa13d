import {
  jobRunListQuerySchema,
  jobRunPageSchema,
  jobRunSchema,
  recordIdParamsSchema,
  recordQuerySchema,
} from "@cyclebill/domain";
import { roleOf } from "../../http/auth-context.js";
import { forbidden } from "../../http/errors.js";
import { defineRoute, type Router } from "../../http/router.js";
import type { JobQueue } from "../../jobs/index.js";
import { startLedgerCheck } from "../ledger-check/ledger-check.js";
import { resolveTenant } from "../tenancy/resolve-tenant.js";
import { getJobRun, listJobRuns } from "./job-runs.js";

const tags = ["Jobs"];

export function registerJobRunRoutes(router: Router, jobs: JobQueue): void {
  const { db, config } = router.deps;

  defineRoute(router, {
    method: "GET",
    url: "/api/jobs/",
    summary: "Job runs of the client, newest first: kind and status filters, paging, ordering",
    tags,
    access: "user",
    query: jobRunListQuerySchema,
    response: jobRunPageSchema,
    handle: async ({ query, auth }) => listJobRuns(db, await resolveTenant(db, auth, query.client_id), query),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/jobs/:id/",
    summary: "One job run: status, done / total, current step, error and, once finished, its result",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: jobRunSchema,
    handle: async ({ params, query, auth }) =>
      getJobRun(db, await resolveTenant(db, auth, query.client_id), params.id),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/jobs/ledger-check/",
    summary:
      "Prove the client's books as a job (admins and the client's owner): 202 with the queued run; its result lists customers whose balance or tallies differ from their ledger",
    tags,
    access: "user",
    query: recordQuerySchema,
    response: jobRunSchema,
    successStatus: 202,
    handle: async ({ query, auth }) => {
      const tenant = await resolveTenant(db, auth, query.client_id);
      if (roleOf(tenant.user) === "staff") throw forbidden();
      return startLedgerCheck(db, tenant, { chunkSize: config.jobs.chunkSize }, async (tx, steps) => {
        for (const step of steps)
          await jobs.enqueue("ledger-check", step.payload, { executor: tx, priority: step.priority });
      });
    },
  });
}
