import {
  appliedGatewayEventSchema,
  gatewayEventInputSchema,
  gatewayEventSchema,
  gatewayEventsQuerySchema,
  integerParam,
  pageSchema,
  recordQuerySchema,
} from "@cyclebill/domain";
import { forbidden } from "../../http/errors.js";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import { inCardRunLane } from "../payments/card-run-lanes.js";
import { paymentGatewayOf } from "../payments/payment-gateway.js";
import { enqueueGatewayFollowups } from "./enqueue-followups.js";
import { listGatewayEvents } from "./list-gateway-events.js";
import { recordManualEvent } from "./record-manual-event.js";
import { admitTransNotify, transNotifyConfirmed } from "./notify-throttle.js";
import { confirmTransNotify } from "./trans-notify.js";
import { currentAuditActor, withAuditActor } from "../audit/audit-context.js";

const tags = ["Payments"];
const NOTIFY_LANE = -37;
const NOTIFY_CONCURRENCY = 4;
export const TRANS_NOTIFY_PATH = "/api/gateway/notify/";

const notifyParamsSchema = z.object({ clientNo: integerParam({ min: 1 }) });
/** The post's fields as sent: every one is only a question for the gateway. */
const notifyBodySchema = z.record(z.string(), z.string()).default({});
const notifyAnswerSchema = z.object({ received: z.boolean() });

/** What the gateway reported after its first answer, and BluePay's Trans Notify door. */
export function registerGatewayEventRoutes(router: Router): void {
  const { db, config, jobs } = router.deps;
  const gateway = () => paymentGatewayOf(config);

  // BluePay posts form-encoded: read as such on this door only; the rest of the API speaks JSON.
  router.app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (request, body, done) => {
      if (!request.url.startsWith(TRANS_NOTIFY_PATH)) {
        const refused = Object.assign(new Error("form bodies are taken by the Trans Notify door only"), {
          statusCode: 415,
          code: "FST_ERR_CTP_INVALID_MEDIA_TYPE",
        });
        done(refused, undefined);
        return;
      }
      const text = typeof body === "string" ? body : body.toString("utf8");
      done(null, Object.fromEntries(new URLSearchParams(text)));
    },
  );

  defineRoute(router, {
    name: "listGatewayEvents",
    method: "GET",
    url: "/api/gateway/events/",
    summary:
      "What the gateway reported after its first answer: settlements, ACH returns (R-codes), chargebacks and their reversals, notifications of change, re-presentments; newest first, by kind or customer",
    tags,
    access: "tenant",
    query: gatewayEventsQuerySchema,
    response: pageSchema(gatewayEventSchema),
    handle: ({ tenant, query }) => listGatewayEvents(db, tenant, query),
  });

  defineRoute(router, {
    name: "recordGatewayEvent",
    method: "POST",
    url: "/api/gateway/events/",
    summary:
      "Provider admins: a return, chargeback, chargeback reversal or notification of change read off BluePay's console, applied as the daily reports' are (once per gateway record)",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: gatewayEventInputSchema,
    response: appliedGatewayEventSchema,
    successStatus: 201,
    handle: async ({ tenant, body, auth }) => {
      if (!auth.user.isAdmin) throw forbidden("Only the provider's admins record gateway events.");
      const applied = await recordManualEvent(db, gateway(), tenant.clientId, auth.user.id, body);
      if (applied.event_id !== null) await enqueueGatewayFollowups(jobs, router.app.log, tenant.clientId);
      return applied;
    },
  });

  defineRoute(router, {
    name: "gatewayTransNotify",
    alsoAnswers: [429],
    method: "POST",
    url: `${TRANS_NOTIFY_PATH}:clientNo/`,
    summary:
      "Public: BluePay's Trans Notify post (form-encoded) for the client numbered clientNo. Answers 200 at once; nothing in the post is trusted: its trans_id is looked up at the gateway with the client's credentials and only the gateway's own record is applied (rate-limited per address)",
    tags,
    access: "public",
    params: notifyParamsSchema,
    body: notifyBodySchema,
    response: notifyAnswerSchema,
    handle: async ({ params, body, request }) => {
      await admitTransNotify(db, request.ip);
      // Answered before the lookup: BluePay wants a quick 200, and retries only what failed.
      // At most a few lookups at once per process (a day's settlement posts come in bursts): the
      // lanes the card runs use, under a key no run has.
      // What a confirmed post applies is the gateway's act, as its lookup showed it.
      const actor = { ...currentAuditActor(), kind: "system" as const, label: "gateway: Trans Notify" };
      void inCardRunLane(NOTIFY_LANE, NOTIFY_CONCURRENCY, () =>
        withAuditActor(actor, () => confirmTransNotify(db, gateway(), params.clientNo, body)),
      )
        .then(async (done) => {
          if (done.outcome !== "confirmed") return;
          await transNotifyConfirmed(db, request.ip);
          if (done.applied?.eventId != null) await enqueueGatewayFollowups(jobs, router.app.log);
        })
        .catch((error: unknown) => request.log.warn({ err: error }, "trans notify not applied"));
      return { received: true };
    },
  });
}
