import {
  markHandledSchema,
  markedHandledSchema,
  pageSchema,
  recordQuerySchema,
  workItemSchema,
  workQueueQuerySchema,
} from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { listWorkQueue } from "./list-work-queue.js";
import { markHandled } from "./mark-handled.js";

const tags = ["Work queue"];

export function registerWorkQueueRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
    name: "listWorkQueue",
    method: "GET",
    url: "/api/work-queue/",
    summary:
      "What needs a person today, each item with the screen that resolves it: every client's for admins (or client_id's), the owner's own client's part",
    tags,
    access: "user",
    query: workQueueQuerySchema,
    response: pageSchema(workItemSchema),
    handle: ({ query, auth }) => listWorkQueue(db, auth.user, query),
  });

  defineRoute(router, {
    name: "markWorkItemHandled",
    method: "POST",
    url: "/api/work-queue/handled/",
    summary:
      "Mark a return, a declined payment or a failed statement email handled (followed up outside Cyclebill), with a note; owners and admins",
    tags,
    access: "tenant",
    query: recordQuerySchema,
    body: markHandledSchema,
    response: markedHandledSchema,
    successStatus: 201,
    alsoAnswers: [404],
    handle: ({ body, tenant }) => markHandled(db, tenant, body),
  });
}
