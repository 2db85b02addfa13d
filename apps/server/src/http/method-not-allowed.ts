import type { DocumentedRoute } from "./router.js";

/** DRF's words for a method the path does not take. */
export function methodNotAllowedDetail(method: string): string {
  return `Method "${method}" not allowed.`;
}

/**
 * The methods each API path takes, for answering 405 (with Allow) instead of 404 when the path
 * exists under other methods. Paths match as the router does: `:name` is one segment, and a trailing
 * slash is optional (ignoreTrailingSlash).
 */
export function allowedMethodsOf(
  routes: readonly Pick<DocumentedRoute, "method" | "url">[],
): (pathname: string) => string[] {
  const patterns = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const route of routes) {
    const key = route.url.replace(/\/$/, "");
    const entry = patterns.get(key) ?? {
      pattern: new RegExp(`^${key.split("/").map(segmentPattern).join("/")}/?$`),
      methods: new Set<string>(),
    };
    entry.methods.add(route.method);
    // Fastify answers HEAD wherever it answers GET.
    if (route.method === "GET") entry.methods.add("HEAD");
    patterns.set(key, entry);
  }
  return (pathname) => {
    const methods = new Set<string>();
    for (const { pattern, methods: taken } of patterns.values()) {
      if (pattern.test(pathname)) taken.forEach((method) => methods.add(method));
    }
    return [...methods].sort();
  };
}

function segmentPattern(segment: string): string {
  return segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
