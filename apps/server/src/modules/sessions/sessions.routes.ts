import {
  endedSessionsSchema,
  recordIdParamsSchema,
  sessionListQuerySchema,
  sessionPageSchema,
  sessionSchema,
} from "@cyclebill/domain";
import { defineRoute, type Router } from "../../http/router.js";
import { listSessions } from "./list-sessions.js";
import { endCallersOtherSessions, endSessionById } from "./manage-sessions.js";

const tags = ["Access"];

export function registerSessionRoutes(router: Router): void {
  const { db } = router.deps;

  defineRoute(router, {
    name: "listSessions",
    method: "GET",
    url: "/api/sessions/",
    summary:
      "Your sessions (each sign-in: device, address, started, last seen), open ones first, yours marked current; with user_id, that user's (owners: their client's users; admins: anyone)",
    tags,
    access: "user",
    query: sessionListQuerySchema,
    response: sessionPageSchema,
    handle: ({ auth, query }) => listSessions(db, auth, query.user_id),
  });

  defineRoute(router, {
    name: "endOtherSessions",
    method: "POST",
    url: "/api/sessions/end-others/",
    summary: "Sign out everywhere else: end every session of yours but this one",
    tags,
    access: "user",
    response: endedSessionsSchema,
    handle: ({ auth }) => endCallersOtherSessions(db, auth),
  });

  defineRoute(router, {
    name: "endSession",
    method: "POST",
    url: "/api/sessions/:id/end/",
    summary:
      "End a session: its token is refused from the next request on (yours; owners: their client's users'; admins: anyone's)",
    tags,
    access: "user",
    params: recordIdParamsSchema,
    response: sessionSchema,
    handle: ({ auth, params }) => endSessionById(db, auth, params.id),
  });
}
