import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Unit tests (domain, web), the gateway sandbox's tests and API tests (server); browser tests run from e2e/vitest.config.ts after a build.
export default defineConfig({
  test: {
    projects: ["packages/domain", "apps/web", "apps/gateway-sandbox", "apps/server"],
    // Vitest's default (cores - 1) runs one file at a time on a 2-core machine, leaving a core idle
    // while a file waits on its server or database. Each API test file has its own database. Three
    // at a time on 2 cores ran the server project in 371 s where two took about 405 s (the files
    // wait on job polls and timers; 1.6 cores busy on average).
    maxWorkers: Math.max(3, availableParallelism()),
  },
});
