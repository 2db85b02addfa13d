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
    // Each file starts its own server (its own database) and browser; two at a time use both cores of
    // a 2-core machine without crowding it (one at a time took 907 s there, two 737 s).
    fileParallelism: true,
    maxWorkers: 2,
  },
});
