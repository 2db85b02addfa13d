import type { paymentAttempts } from "../../db/tables.js";

/** A payment attempt as stored: a charge, a refund or a settlement query's subject. */
export type AttemptRow = typeof paymentAttempts.$inferSelect;
