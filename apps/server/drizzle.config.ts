import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: [
    "./src/db/schema/platform.ts",
    "./src/db/schema/billing.ts",
    "./src/db/schema/jobs.ts",
    "./src/db/schema/payments.ts",
  ],
  out: "./drizzle",
});
