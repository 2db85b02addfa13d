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
import { startLedgerCheck } from "../ledger-check/ledger-check.js";
import { getJobRun, listJobRuns } from "./job-runs.js";

const tags = ["Jobs"];

export function registerJobRunRoutes(router: Router): void {
  const { db, config, jobs } = router.deps;

  defineRoute(router, {
    name: "listJobRuns",
    method: "GET",
    url: "/api/jobs/",
    summary: "Job runs of the client, newest first: kind and status filters, paging, ordering",
    tags,
    access: "tenant",
    query: jobRunListQuerySchema,
    response: jobRunPageSchema,
    handle: async ({ query, tenant }) => listJobRuns(db, tenant, query),
  });

  defineRoute(router, {
    name: "getJobRun",
    method: "GET",
    url: "/api/jobs/:id/",
    summary: "One job run: status, done / total, current step, error and, once finished, its result",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: jobRunSchema,
    handle: async ({ params, tenant }) => getJobRun(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "startLedgerCheck",
    method: "POST",
    url: "/api/jobs/ledger-check/",
    summary:
      "Prove the client's books as a job (admins and the client's owner): 202 with the queued run; its result lists customers whose balance or tallies differ from their ledger",
    tags,
    access: "tenant",
    query: recordQuerySchema,
    response: jobRunSchema,
    successStatus: 202,
    handle: async ({ tenant }) => {
      if (roleOf(tenant.user) === "staff") throw forbidden();
      return startLedgerCheck(db, tenant, { chunkSize: config.jobs.chunkSize }, async (tx, steps) => {
        for (const step of steps)
          await jobs.enqueue("ledger-check", step.payload, { executor: tx, priority: step.priority });
      });
    },
  });
}
