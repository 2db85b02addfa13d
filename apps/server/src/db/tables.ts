// The whole schema, for drizzle's relational queries and drizzle-kit.
export * from "./schema/platform.js";
export * from "./schema/billing.js";
export * from "./schema/jobs.js";
export * from "./schema/payments.js";
export * from "./schema/gateway.js";
export * from "./schema/card-notices.js";
export * from "./schema/audit.js";
export * from "./schema/work-queue.js";
export * from "./schema/production-schedule.js";
