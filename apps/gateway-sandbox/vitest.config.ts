import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "gateway-sandbox", include: ["src/**/*.test.ts"] },
});
