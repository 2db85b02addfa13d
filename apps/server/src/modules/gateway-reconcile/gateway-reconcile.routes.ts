import {
  jobRunSchema,
  reconcileQuerySchema,
  reconciliationListQuerySchema,
  reconciliationPageSchema,
  reconciliationQuerySchema,
  reconciliationSchema,
  recordIdParamsSchema,
} from "@cyclebill/domain";
import { roleOf, type TenantContext } from "../../http/auth-context.js";
import { forbidden } from "../../http/errors.js";
import { defineRoute, type Router } from "../../http/router.js";
import { sendDownload } from "../../http/send-file.js";
import { paymentGatewayOf } from "../payments/payment-gateway.js";
import {
  getReconciliation,
  listReconciliations,
  reconciliationCsv,
  startReconcile,
} from "./reconciliations.js";

const tags = ["Gateway"];

/** The reconciliation is the books' business: admins and the client's owner, not staff. */
function ownersOnly(tenant: TenantContext): void {
  if (roleOf(tenant.user) === "staff") throw forbidden();
}

/** BluePay's settlement against the ledger: an admin's run of a day, and the days' reports. */
export function registerGatewayReconcileRoutes(router: Router): void {
  const { db, config, jobs } = router.deps;

  defineRoute(router, {
    name: "startGatewayReconcile",
    method: "POST",
    url: "/api/gateway/reconcile/",
    summary:
      "Reconcile a client's day (date=YYYY-MM-DD) with BluePay's settlement and return reports, as a job (admins): 202 with the run; 400 for a client without a gateway key",
    tags,
    access: "tenant",
    query: reconcileQuerySchema,
    response: jobRunSchema,
    successStatus: 202,
    handle: ({ query, tenant }) =>
      startReconcile(db, paymentGatewayOf(config), tenant, query.date, (tx, payload) =>
        jobs.enqueue("gateway-reconcile", payload, { executor: tx }),
      ),
  });

  defineRoute(router, {
    name: "listGatewayReconciliations",
    method: "GET",
    url: "/api/gateway/reconciliations/",
    summary:
      "The client's reconciled days, newest first: totals at the gateway and in the ledger, and the differences by kind (date filters one day)",
    tags,
    access: "tenant",
    query: reconciliationListQuerySchema,
    response: reconciliationPageSchema,
    handle: ({ query, tenant }) => {
      ownersOnly(tenant);
      return listReconciliations(db, tenant, query);
    },
  });

  defineRoute(router, {
    name: "getGatewayReconciliation",
    method: "GET",
    url: "/api/gateway/reconciliations/:id/",
    summary: "One reconciled day with every difference; ?format=csv downloads it as CSV",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: reconciliationQuerySchema,
    response: reconciliationSchema,
    handle: async ({ params, query, tenant, reply }) => {
      ownersOnly(tenant);
      const reconciliation = await getReconciliation(db, tenant, params.id);
      if (query.format === "csv")
        await sendDownload(reply, reconciliationCsv(reconciliation), "text/csv; charset=utf-8");
      return reconciliation;
    },
  });
}
