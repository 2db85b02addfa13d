import { registerAuthRoutes } from "../modules/auth/auth.routes.js";
import { registerClientRoutes } from "../modules/clients/clients.routes.js";
import { registerCodeRoutes } from "../modules/codes/codes.routes.js";
import { registerCustomerRoutes } from "../modules/customers/customers.routes.js";
import { registerGroupRoutes } from "../modules/groups/groups.routes.js";
import { registerHealthRoutes } from "../modules/health/health.routes.js";
import { registerJobRunRoutes } from "../modules/jobs/job-runs.routes.js";
import { registerInvoiceRoutes } from "../modules/invoices/invoices.routes.js";
import { registerMessageRoutes } from "../modules/messages/messages.routes.js";
import { registerProductionRoutes } from "../modules/production/production.routes.js";
import { registerPoolRoutes } from "../modules/delivery/pools.routes.js";
import { registerPaymentRoutes } from "../modules/payments/payments.routes.js";
import { registerAccountReportRoutes } from "../modules/reports/account-reports.routes.js";
import { registerCardRunRoutes } from "../modules/payments/card-runs.routes.js";
import { registerExpiringCardRoutes } from "../modules/payments/expiring-cards.routes.js";
import { registerGatewayEventRoutes } from "../modules/gateway-events/gateway-events.routes.js";
import { registerStatementRoutes } from "../modules/statements/statements.routes.js";
import { registerSummaryRoutes } from "../modules/summary/summary.routes.js";
import { registerTransactionRoutes } from "../modules/transactions/transactions.routes.js";
import { registerUnitRoutes } from "../modules/units/units.routes.js";
import { registerUserRoutes } from "../modules/users/users.routes.js";
import { registerGatewayReconcileRoutes } from "../modules/gateway-reconcile/gateway-reconcile.routes.js";
import type { Router } from "./router.js";

/** Every API route, in one place: the app serves them and the OpenAPI document describes them. */
export function registerApiRoutes(router: Router): void {
  registerHealthRoutes(router);
  registerAuthRoutes(router);
  registerUserRoutes(router);
  registerMessageRoutes(router);
  registerClientRoutes(router);
  registerSummaryRoutes(router);
  registerCustomerRoutes(router);
  registerUnitRoutes(router);
  registerCodeRoutes(router);
  registerGroupRoutes(router);
  registerTransactionRoutes(router);
  registerInvoiceRoutes(router);
  registerStatementRoutes(router);
  registerJobRunRoutes(router);
  registerGatewayReconcileRoutes(router);
  registerProductionRoutes(router);
  registerPoolRoutes(router);
  registerAccountReportRoutes(router);
  registerPaymentRoutes(router);
  registerCardRunRoutes(router);
  registerExpiringCardRoutes(router);
  registerGatewayEventRoutes(router);
}
