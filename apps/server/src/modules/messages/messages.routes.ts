import { recordQuerySchema } from "@cyclebill/domain";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import { getMessages, setSystemMessage } from "./messages.js";

const messagesSchema = z.object({ client_message: z.string(), system_message: z.string() });

export function registerMessageRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
    name: "getMessages",
    method: "GET",
    url: "/api/messages",
    summary: "Client message and system message for the notification bell",
    tags: ["Messages"],
    access: "user",
    query: recordQuerySchema,
    response: messagesSchema,
    handle: ({ auth, query }) => getMessages(db, auth, query.client_id),
  });

  defineRoute(router, {
    name: "setSystemMessage",
    method: "PUT",
    url: "/api/messages",
    summary: "Set the system message shown to every user (admins)",
    tags: ["Messages"],
    access: "admin",
    // The length as sent (the document's maxLength), then trimmed for storing.
    body: z.object({ system_message: z.string().max(1000).trim() }),
    response: messagesSchema,
    handle: ({ auth, body }) => setSystemMessage(db, auth, body.system_message),
  });
}
