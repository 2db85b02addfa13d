import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { SECOND_FACTOR_ENROLMENT_MESSAGE, drfErrorMap, nulCharacterIssues } from "@cyclebill/domain";
import type { z } from "zod";
import type { Config } from "../config.js";
import type { Database } from "../db/database.js";
import { authenticate } from "../modules/auth/authenticate.js";
import type { JobQueue } from "../jobs/index.js";
import type { Mailer } from "../modules/mail/mailer.js";
import { resolveTenant } from "../modules/tenancy/resolve-tenant.js";
import { userAgentOf, withAuditActor } from "../modules/audit/audit-context.js";
import type { AuthContext, TenantContext } from "./auth-context.js";
import { clientIdInBody } from "./client-id-in-body.js";
import { badRequest, forbidden, zodIssuesToDrf } from "./errors.js";
import { forgetCounts } from "../db/list-counts.js";

/** What routes need: the database, the configuration, the mailer and the job queue (to enqueue work). */
export type AppDeps = { db: Database; config: Config; mailer: Mailer; jobs: JobQueue };

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/**
 * public: anyone; user: any signed-in user; admin: provider admins only;
 * tenant: a signed-in user acting for one client, which the router resolves before the handler runs.
 */
export type Access = "public" | "user" | "admin" | "tenant";

export type DocumentedRoute = {
  name: string;
  method: HttpMethod;
  url: string;
  summary: string;
  tags: string[];
  access: Access;
  query?: z.ZodType;
  body?: z.ZodType;
  params?: z.ZodType;
  response?: z.ZodType;
  successStatus: number;
  produces?: string;
  alsoAnswers?: readonly ErrorStatus[];
};

/** Refusals a route may answer beyond those every route of its kind answers (see openapi.ts). */
export type ErrorStatus = 404 | 409 | 422 | 429;

export type Router = {
  app: FastifyInstance;
  deps: AppDeps;
  documented: DocumentedRoute[];
};

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteInput<Q, B, P, A extends Access> = {
  query: Output<Q>;
  body: Output<B>;
  params: Output<P>;
  auth: A extends "public" ? AuthContext | null : AuthContext;
  /** The client the request acts for: only tenant routes have one. */
  tenant: A extends "tenant" ? TenantContext : undefined;
  request: FastifyRequest;
  reply: FastifyReply;
};

/**
 * Where a tenant route reads the client's id. query: ?client_id=; query-or-body: ?client_id=, else
 * client_id in the JSON body (clients of the old API; the query wins); or a function of the parsed input.
 */
export type ClientIdSource<Q, B, P> =
  | "query"
  | "query-or-body"
  | ((input: { query: Output<Q>; body: Output<B>; params: Output<P> }) => number | undefined);

/** What a handler returns: the response schema's type, so an output function cannot drift from it. */
type Answer<R> = R extends z.ZodType ? z.output<R> : unknown;

export type RouteDefinition<Q, B, P, A extends Access, R = undefined> = {
  /** Unique, stable name of the operation: the OpenAPI operationId. */
  name: string;
  method: HttpMethod;
  url: string;
  summary: string;
  tags: string[];
  access: A;
  /** Tenant routes only: where client_id comes from (the query unless said otherwise). */
  clientIdFrom?: A extends "tenant" ? ClientIdSource<Q, B, P> : never;
  query?: Q;
  body?: B;
  params?: P;
  /** The JSON body of a successful answer; the OpenAPI document shows it. */
  response?: R;
  /** Status of a successful answer; 200 unless said otherwise (201 for creates, 204 for deletes). */
  successStatus?: number;
  /** Content type of a successful answer when it is not JSON (PDF, CSV, zip). */
  produces?: string;
  /** Statuses the handler's code refuses with beyond the router's own (409 a read, 429 throttled, 422). */
  alsoAnswers?: readonly ErrorStatus[];
  /**
   * Answers a user held at second-factor enrolment too (enrolment itself, /api/me/, logout). Every
   * other route refuses such a user with 403: the hold is enforced here, not by each route.
   */
  openBeforeSecondFactor?: boolean;
  handle: (input: RouteInput<Q, B, P, A>) => Promise<Answer<R>> | Answer<R>;
};

/**
 * Parses with DRF-worded messages; a failure is a 400 in DRF's shape. A NUL anywhere in the input
 * (even in a key the schema would drop) is refused first: PostgreSQL text cannot store it.
 */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const nulIssues = nulCharacterIssues(data);
  if (nulIssues.length > 0) throw badRequest(zodIssuesToDrf(nulIssues));
  const result = schema.safeParse(data, { error: drfErrorMap });
  if (!result.success) throw badRequest(zodIssuesToDrf(result.error.issues));
  return result.data;
}

/**
 * Registers one API route: authenticate, parse the inputs with the shared zod schemas,
 * call the handler (one plain function), answer. The same definition feeds the OpenAPI document.
 */
export function defineRoute<
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  A extends Access = Access,
  R extends z.ZodType | undefined = undefined,
>(router: Router, definition: RouteDefinition<Q, B, P, A, R>): void {
  const { app, deps, documented } = router;
  const successStatus = definition.successStatus ?? 200;
  if (documented.some((route) => route.name === definition.name)) {
    throw new Error(`Two routes are named ${definition.name}; operation names must be unique.`);
  }
  documented.push({
    name: definition.name,
    method: definition.method,
    url: definition.url,
    summary: definition.summary,
    tags: definition.tags,
    access: definition.access,
    query: definition.query,
    body: definition.body,
    params: definition.params,
    response: definition.response,
    successStatus,
    produces: definition.produces,
    alsoAnswers: definition.alsoAnswers,
  });
  app.route({
    method: definition.method,
    url: definition.url,
    handler: async (request, reply) => {
      let auth: AuthContext | null = null;
      if (definition.access !== "public") {
        auth = await authenticate(
          deps.db,
          deps.config.jwtSecret,
          request.headers.authorization,
          deps.config.adminSecondFactor,
        );
        if (auth.secondFactorEnrolmentRequired && !definition.openBeforeSecondFactor)
          throw forbidden(SECOND_FACTOR_ENROLMENT_MESSAGE);
        if (definition.access === "admin" && !auth.user.isAdmin) throw forbidden();
      } else if (request.headers.authorization) {
        auth = await authenticate(
          deps.db,
          deps.config.jwtSecret,
          request.headers.authorization,
          deps.config.adminSecondFactor,
        ).catch(() => null);
        // A public route serves a held user as it serves anyone: not as that user.
        if (auth?.secondFactorEnrolmentRequired) auth = null;
      }
      const query = (
        definition.query ? parseInput(definition.query, request.query ?? {}) : undefined
      ) as Output<Q>;
      const body = (definition.body ? parseInput(definition.body, request.body) : undefined) as Output<B>;
      const params = (
        definition.params ? parseInput(definition.params, request.params ?? {}) : undefined
      ) as Output<P>;
      // After parsing, as the handlers did before: invalid input answers 400 before any tenant check.
      const tenant =
        definition.access === "tenant" && auth
          ? await resolveTenant(
              deps.db,
              auth,
              requestedClientId(definition.clientIdFrom, { query, body, params }, request.body),
            )
          : undefined;
      const input: RouteInput<Q, B, P, A> = {
        query,
        body,
        params,
        auth: auth as RouteInput<Q, B, P, A>["auth"],
        tenant: tenant as RouteInput<Q, B, P, A>["tenant"],
        request,
        reply,
      };
      // Every audit row written while handling names who asked and from where (audit-context.ts).
      const result = await withAuditActor(
        {
          // Nobody signed in: a payer on the public pay pages, else a visitor (registration, reset).
          kind: !auth && definition.url.includes("/payments/") ? "payer" : "user",
          userId: auth?.user.id ?? null,
          label: auth?.user.email ?? (definition.url.includes("/payments/") ? "payer" : "anonymous"),
          address: request.ip,
          userAgent: userAgentOf(request.headers["user-agent"]),
        },
        () => definition.handle(input),
      );
      // A staff write may change what the lists count (see list-counts.ts). Not a public call: most
      // are reads sent as POST (a pay-link lookup forgot every client's counts), and a customer's own
      // payment shows in staff's counts within the TTL, as another process's writes do.
      if (request.method !== "GET" && definition.access !== "public") forgetCounts(deps.db, tenant?.clientId);
      if (reply.sent) return reply;
      if (successStatus === 204) return reply.code(204).send();
      return reply.code(successStatus).send(result);
    },
  });
}

function requestedClientId<Q, B, P>(
  source: ClientIdSource<Q, B, P> | undefined,
  input: { query: Output<Q>; body: Output<B>; params: Output<P> },
  rawBody: unknown,
): number | undefined {
  if (typeof source === "function") return source(input);
  const fromQuery = clientIdOf(input.query);
  if (source === "query-or-body") return fromQuery ?? clientIdInBody(rawBody);
  return fromQuery;
}

/** client_id of a parsed query; every tenant route's query schema declares it as an optional integer. */
function clientIdOf(query: unknown): number | undefined {
  if (typeof query !== "object" || query === null || !("client_id" in query)) return undefined;
  const { client_id: clientId } = query;
  return typeof clientId === "number" ? clientId : undefined;
}
