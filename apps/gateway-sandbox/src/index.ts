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
  SandboxTransaction,
  SandboxTransType,
} from "./sandbox-transaction.js";
export type { SandboxFaults } from "./fault-plan.js";
export { generator as seededRandom } from "./fault-plan.js";
