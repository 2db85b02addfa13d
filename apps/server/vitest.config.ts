import { defineProject } from "vitest/config";

export default defineProject({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: {
    name: "server",
    include: ["src/**/*.test.ts"],
    // Migrates one database per run; every test file's database starts as a copy of it.
    globalSetup: ["src/test-support/test-templates.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
