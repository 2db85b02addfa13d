import { defineProject } from "vitest/config";

// The web's pure modules (form rules, drafts, display rules): plain Node, no browser; screens are
// tested in a real browser under e2e/.
export default defineProject({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: { name: "web", include: ["src/**/*.test.ts"], environment: "node" },
});
