import { listQuerySchema, recordIdParamsSchema, recordQuerySchema, userInputSchema } from "@cyclebill/domain";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import {
  addClientUser,
  deleteClientUser,
  getClientUser,
  listClientLoginAlerts,
  listClientUsers,
  updateClientUser,
} from "./manage-users.js";
import { userOutputSchema } from "./users.resource.js";
import { loginAlertSchema } from "../auth/login-alerts.js";

const tags = ["Users"];

export function registerUserRoutes(router: Router): void {
  const { db, config, mailer } = router.deps;

  defineRoute(router, {
    name: "listUsers",
    method: "GET",
    url: "/api/users/",
    summary: "The client's users (owners and admins only)",
    tags,
    access: "tenant",
    query: listQuerySchema,
    response: z.object({ count: z.number().int(), results: z.array(userOutputSchema) }),
    handle: async ({ query, tenant }) => listClientUsers(db, tenant, query),
  });

  defineRoute(router, {
    name: "listUserLoginAlerts",
    method: "GET",
    url: "/api/users/login-alerts/",
    summary:
      "The client's users whose sign-in is under attack: more failed logins in the last hour than the throttle's account limit (owners and admins only)",
    tags,
    access: "tenant",
    query: recordQuerySchema,
    response: z.object({ count: z.number().int(), results: z.array(loginAlertSchema) }),
    handle: async ({ tenant }) => listClientLoginAlerts(db, tenant),
  });

  defineRoute(router, {
    name: "getUser",
    method: "GET",
    url: "/api/users/:id/",
    summary: "One of the client's users",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: userOutputSchema,
    handle: async ({ params, tenant }) => getClientUser(db, tenant, params.id),
  });

  defineRoute(router, {
    name: "createUser",
    method: "POST",
    url: "/api/users/",
    summary: "Add a user to the client; they get an email to set their password",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    query: recordQuerySchema,
    body: userInputSchema,
    response: userOutputSchema,
    successStatus: 201,
    handle: async ({ body, tenant }) => addClientUser(db, mailer, config.publicUrl, tenant, body),
  });

  defineRoute(router, {
    name: "updateUser",
    method: "PUT",
    url: "/api/users/:id/",
    summary: "Replace a user's names, email, staff flag and active flag",
    tags,
    access: "tenant",
    clientIdFrom: "query-or-body",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: userInputSchema,
    response: userOutputSchema,
    handle: async ({ params, body, tenant }) => updateClientUser(db, tenant, params.id, body),
  });

  defineRoute(router, {
    name: "deleteUser",
    method: "DELETE",
    url: "/api/users/:id/",
    summary: "Remove a user from the client",
    tags,
    access: "tenant",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: async ({ params, tenant }) => deleteClientUser(db, tenant, params.id),
  });
}
