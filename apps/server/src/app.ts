import { setClock } from "./clock.js";
import { randomUUID } from "node:crypto";
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { describeDataError, pgErrorCode } from "./db/pg-errors.js";
import { HttpError, NOT_FOUND_DETAIL, SERVER_ERROR_DETAIL } from "./http/errors.js";
import { registerApiRoutes } from "./http/api-routes.js";
import { buildOpenApiDocument } from "./http/openapi.js";
import { allowedMethodsOf, methodNotAllowedDetail } from "./http/method-not-allowed.js";
import { REVALIDATE_CACHE_CONTROL, registerWebApp } from "./http/web-app.js";
import type { AppDeps, Router } from "./http/router.js";
import { createMailer, type Mailer } from "./modules/mail/mailer.js";
import type { JobQueue } from "./jobs/index.js";

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Query keys whose values never reach the logs. */
const SECRET_QUERY_KEYS = /^(token|password|password_confirmation|confirmPassword|secret|key)$/i;

export function redactUrl(url: string): string {
  const queryStart = url.indexOf("?");
  if (queryStart < 0) return url;
  const params = new URLSearchParams(url.slice(queryStart + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY_KEYS.test(key)) params.set(key, "[redacted]");
  return `${url.slice(0, queryStart)}?${params.toString()}`;
}

/**
 * One log line per request, written when it is answered (method, url, request id, status, time),
 * instead of Fastify's two: under load each line costs a serialization and a write.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}

/** An app built without the job engine (most API tests) reads job runs but cannot queue one. */
const noJobEngine: JobQueue = {
  enqueue: () => Promise.reject(new HttpError(503, { detail: "The job engine is not running." })),
  stop: () => Promise.resolve(),
};

export type BuildAppOptions = {
  logger?: boolean;
  /** Where the log goes instead of stdout (tests that read what was logged). */
  logStream?: NodeJS.WritableStream;
};

export async function buildApp(
  given: Omit<AppDeps, "mailer" | "jobs"> & { mailer?: Mailer; jobs?: JobQueue },
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const config = given.config;
  // The provider's time zone makes "today" for every date default and month-to-date figure.
  setClock({ timeZone: config.timeZone });
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    // request.ip is the X-Forwarded-For client only behind these proxies (TRUST_PROXY).
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    routerOptions: { ignoreTrailingSlash: true },
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    logController: new OneLinePerRequest(),
    // Fastify answers undecodable paths (400) and over-long ids (414) itself: in DRF's shape too.
    frameworkErrors: (error, _request, reply) => {
      void (reply as unknown as FastifyReply).code(error.statusCode ?? 400).send({ detail: error.message });
    },
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...(options.logStream ? { stream: options.logStream } : {}),
            redact: {
              paths: ["req.headers.authorization", "req.headers.cookie", "*.password", "*.token"],
              censor: "[redacted]",
            },
            serializers: {
              req: (request: { method: string; url: string; id: string }) => ({
                method: request.method,
                url: redactUrl(request.url),
                reqId: request.id,
              }),
            },
          },
  });

  // The API speaks JSON only: other content types answer 415.
  app.removeContentTypeParser("text/plain");
  // Empty JSON bodies (e.g. action POSTs with no payload) read as "no body" instead of failing.
  const defaultJsonParser = app.getDefaultJsonParser("error", "error");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    defaultJsonParser(request, text, done);
  });

  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    // A download's stream that fails before its first byte comes here with the file's headers set:
    // the JSON error must not go out under them (Fastify refuses an object as application/zip).
    for (const header of ["content-type", "content-length", "content-disposition"])
      reply.removeHeader(header);
    if (error instanceof HttpError) return reply.code(error.status).send(error.body);
    const fastifyError = error as FastifyError;
    switch (fastifyError.code) {
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return reply.code(413).send({ detail: "Request body is too large; the limit is 1 MB." });
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return reply
          .code(415)
          .send({ detail: `Unsupported media type "${request.headers["content-type"] ?? ""}" in request.` });
      case "FST_ERR_CTP_INVALID_JSON_BODY":
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
        return reply.code(400).send({ detail: `JSON parse error - ${fastifyError.message}` });
      default:
        break;
    }
    if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
      return reply.code(400).send({ detail: `JSON parse error - ${error.message}` });
    }
    const dataError = describeDataError(pgErrorCode(error));
    if (dataError) return reply.code(400).send({ non_field_errors: [dataError] });
    if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      return reply.code(fastifyError.statusCode).send({ detail: fastifyError.message });
    }
    request.log.error({ err: error }, "request failed");
    return reply.code(500).send({ detail: SERVER_ERROR_DETAIL });
  });

  const deps: AppDeps = {
    ...given,
    jobs: given.jobs ?? noJobEngine,
    mailer: given.mailer ?? createMailer({ smtpUrl: config.smtpUrl, dataDir: config.dataDir, log: app.log }),
  };
  const router: Router = { app, deps, documented: [] };
  registerApiRoutes(router);

  const openApiDocument = buildOpenApiDocument(router.documented);
  app.get("/api/docs", async () => openApiDocument);
  const allowedMethods = allowedMethodsOf([...router.documented, { method: "GET", url: "/api/docs" }]);

  const indexHtml = await registerWebApp(app, {
    webDistDir: deps.config.webDistDir,
    timeZone: config.timeZone,
  });

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "";
    if (pathname === "/api" || pathname.startsWith("/api/")) {
      // A known path under a method it does not take: 405 naming the methods it does, as DRF does.
      const allowed = allowedMethods(pathname);
      if (allowed.length > 0)
        return reply
          .code(405)
          .header("allow", allowed.join(", "))
          .send({ detail: methodNotAllowedDetail(request.method) });
      return reply.code(404).send({ detail: NOT_FOUND_DETAIL });
    }
    if (request.method !== "GET" && request.method !== "HEAD")
      return reply.code(404).send({ detail: NOT_FOUND_DETAIL });
    // A missing build asset (e.g. after a rebuild) is a 404, not the app's HTML under a script's name.
    if (pathname.startsWith("/assets/")) return reply.code(404).type("text/plain").send("Not found");
    // History-mode routing: every other path is a screen of the web app.
    if (indexHtml !== null)
      return reply.header("cache-control", REVALIDATE_CACHE_CONTROL).type("text/html").send(indexHtml);
    return reply
      .code(404)
      .type("text/plain")
      .send("The web app is not built. Run `npm run build` (or `npm start`, which builds it).");
  });

  return app;
}
