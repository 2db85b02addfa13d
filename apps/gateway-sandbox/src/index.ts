// Public surface of @cyclebill/gateway-sandbox: a local BluePay 2.0 gateway for tests and demos.
export * from "./bluepay-sandbox.js";
export * from "./app-sandbox.js";
export * from "./sandbox-accounts.js";
export * from "./sandbox-options.js";
export { SEAL_FIELDS } from "./sandbox-book.js";
export { QUERY_SEAL_FIELDS } from "./sandbox-query.js";
export { HASH_TYPES, type HashType } from "./sandbox-seal.js";
export type {
  SandboxAccount,
  SandboxDelivery,
  SandboxEvent,
  SandboxOrigin,
  SandboxRejectKind,
  SandboxTransaction,
  SandboxTransType,
} from "./sandbox-transaction.js";
export type { ControlResult, LoseAnswers } from "./sandbox-controls.js";
export { BP10EMU_SEAL_FIELDS } from "./bp10emu.js";
export { NOTIFY_STAMP_FIELDS } from "./sandbox-notify.js";
export {
  CHARGEBACK_COLUMNS,
  DAILY_REPORT_COLUMNS,
  DAILY_REPORT_V2_COLUMNS,
  RECON_COLUMNS,
} from "./sandbox-reports.js";
export type { SandboxFaults } from "./fault-plan.js";
export { generator as seededRandom } from "./fault-plan.js";
