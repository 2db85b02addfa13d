import { defineConfig } from "vitest/config";

// Unit tests (domain) and API tests (server); browser tests run from e2e/vitest.config.ts after a build.
export default defineConfig({
  test: {
    projects: ["packages/domain", "apps/server"],
  },
});
