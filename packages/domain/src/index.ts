// Public surface of @cyclebill/domain: pure rules shared by server and web.
export * from "./money/decimal.js";
export * from "./money/money.js";
export * from "./money/money-schemas.js";
export * from "./api/drf-messages.js";
export * from "./api/list-query.js";
export * from "./codes/code-types.js";
export * from "./codes/code-schemas.js";
export * from "./groups/group-schemas.js";
export * from "./ledger/ledger-effect.js";
export * from "./auth/auth-schemas.js";
export * from "./users/user-schemas.js";
export * from "./ageing/age-balance.js";
export * from "./reference/us-states.js";
export * from "./clients/client-rules.js";
export * from "./clients/client-schemas.js";
export * from "./groups/group-positions.js";
export * from "./reporting/fiscal-periods.js";
