import { defineConfig } from "vitest/config";

// Unit tests (domain), the gateway sandbox's tests and API tests (server); browser tests run from e2e/vitest.config.ts after a build.
export default defineConfig({
  test: {
    projects: ["packages/domain", "apps/gateway-sandbox", "apps/server"],
  },
});
