import { listQuerySchema, recordIdParamsSchema, recordQuerySchema, userInputSchema } from "@cyclebill/domain";
import { z } from "zod";
import { clientIdInBody } from "../../http/client-id-in-body.js";
import { defineRoute, type Router } from "../../http/router.js";
import { resolveTenant } from "../tenancy/resolve-tenant.js";
import {
  addClientUser,
  deleteClientUser,
  getClientUser,
  listClientUsers,
  updateClientUser,
} from "./manage-users.js";
import { userOutputSchema } from "./users.resource.js";

const tags = ["Users"];

export function registerUserRoutes(router: Router): void {
  const { db, config, mailer } = router.deps;

  defineRoute(router, {
    method: "GET",
    url: "/api/users/",
    summary: "The client's users (owners and admins only)",
    tags,
    access: "user",
    query: listQuerySchema,
    response: z.object({ count: z.number().int(), results: z.array(userOutputSchema) }),
    handle: async ({ query, auth }) =>
      listClientUsers(db, await resolveTenant(db, auth, query.client_id), query),
  });

  defineRoute(router, {
    method: "GET",
    url: "/api/users/:id/",
    summary: "One of the client's users",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    response: userOutputSchema,
    handle: async ({ params, query, auth }) =>
      getClientUser(db, await resolveTenant(db, auth, query.client_id), params.id),
  });

  defineRoute(router, {
    method: "POST",
    url: "/api/users/",
    summary: "Add a user to the client; they get an email to set their password",
    tags,
    access: "user",
    query: recordQuerySchema,
    body: userInputSchema,
    response: userOutputSchema,
    successStatus: 201,
    handle: async ({ query, body, auth, request }) =>
      addClientUser(
        db,
        mailer,
        config.publicUrl,
        await resolveTenant(db, auth, query.client_id ?? clientIdInBody(request.body)),
        body,
      ),
  });

  defineRoute(router, {
    method: "PUT",
    url: "/api/users/:id/",
    summary: "Replace a user's names, email, staff flag and active flag",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    body: userInputSchema,
    response: userOutputSchema,
    handle: async ({ params, query, body, auth, request }) =>
      updateClientUser(
        db,
        await resolveTenant(db, auth, query.client_id ?? clientIdInBody(request.body)),
        params.id,
        body,
      ),
  });

  defineRoute(router, {
    method: "DELETE",
    url: "/api/users/:id/",
    summary: "Remove a user from the client",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    query: recordQuerySchema,
    successStatus: 204,
    handle: async ({ params, query, auth }) =>
      deleteClientUser(db, await resolveTenant(db, auth, query.client_id), params.id),
  });
}
