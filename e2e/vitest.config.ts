import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Browser tests: run after `npm run build`; they start the built server and drive Chromium.
export default defineConfig({
  test: {
    name: "e2e",
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["**/*.spec.ts"],
    testTimeout: 60_000,
    hookTimeout: 150_000,
    teardownTimeout: 30_000,
    // expect.poll waits for what the page shows; its 1 s default is too short on a loaded machine.
    expect: { poll: { timeout: 10_000 } },
    // Each file starts its own server and browser; running them one at a time keeps the machine calm.
    fileParallelism: false,
  },
});
