import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/db/schema/platform.ts", "./src/db/schema/billing.ts", "./src/db/schema/jobs.ts"],
  out: "./drizzle",
});
