import Fastify from "fastify";
import type { Config } from "../config.js";
import type { Database } from "../db/database.js";
import type { JobQueue } from "../jobs/index.js";
import type { Mailer } from "../modules/mail/mailer.js";
import { registerApiRoutes } from "./api-routes.js";
import { buildOpenApiDocument, type OpenApiDocument } from "./openapi.js";
import type { AppDeps, DocumentedRoute, Router } from "./router.js";

/** A dependency the document never uses: registering routes only keeps references to it. */
function unused<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get: (_target, property) => {
      throw new Error(`${name}.${String(property)} is not available while describing the API.`);
    },
  });
}

/**
 * The route table without a database or a listening server: the routes are registered on a bare
 * Fastify instance, which is all their definitions need.
 */
export async function describeRoutes(): Promise<DocumentedRoute[]> {
  const app = Fastify({ logger: false });
  const deps: AppDeps = {
    db: unused<Database>("db"),
    config: unused<Config>("config"),
    mailer: unused<Mailer>("mailer"),
    jobs: unused<JobQueue>("jobs"),
  };
  const router: Router = { app, deps, documented: [] };
  registerApiRoutes(router);
  await app.close();
  return router.documented;
}

/** The OpenAPI document, from the route table alone. */
export async function describeApi(): Promise<OpenApiDocument> {
  return buildOpenApiDocument(await describeRoutes());
}
