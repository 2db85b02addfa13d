import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/** Build assets carry a content hash in their name, so a given URL never changes: cache it for good. */
export const IMMUTABLE_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** index.html names the current build's assets, so browsers must check it on every load. */
export const REVALIDATE_CACHE_CONTROL = "no-cache";

export type WebAppOptions = { webDistDir: string; timeZone: string };

/**
 * Serves the built web app's files, each as its `.br`/`.gz` sibling (written at build time) when the
 * browser accepts it. Returns index.html for history-mode routes, or null when the app is not built.
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions): Promise<string | null> {
  const webIndex = path.join(options.webDistDir, "index.html");
  if (!existsSync(webIndex)) return null;
  // The page carries the provider's time zone, so the browser's "today" is the server's business date.
  const indexHtml = readFileSync(webIndex, "utf8").replace(
    "</head>",
    `<meta name="billing-time-zone" content="${options.timeZone}" /></head>`,
  );
  const assetsDir = path.join(path.resolve(options.webDistDir), "assets") + path.sep;
  await app.register(fastifyStatic, {
    root: options.webDistDir,
    // One route per built file, so anything else falls through to the not-found handler.
    wildcard: false,
    index: false,
    // index.html is served from memory (with the time zone); the compressed copies only through negotiation.
    globIgnore: ["index.html", "**/*.br", "**/*.gz"],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      reply.header(
        "cache-control",
        filePath.startsWith(assetsDir) ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL,
      );
    },
  });
  return indexHtml;
}
