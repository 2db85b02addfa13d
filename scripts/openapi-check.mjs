#!/usr/bin/env node
// The OpenAPI document as outside clients see it: written from the route definitions (no database,
// no server), linted by Redocly with its recommended rules (redocly.yaml), then turned into a typed
// client with openapi-typescript, which must type-check in a small program that uses it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const dir = mkdtempSync(path.join(tmpdir(), "cyclebill-openapi-"));
const documentPath = path.join(dir, "openapi.json");

function step(label, command, args) {
  console.log(`\n--- ${label} ---`);
  const outcome = spawnSync(command, args, { stdio: "inherit" });
  if (outcome.status !== 0) {
    console.error(`${label} failed (exit ${String(outcome.status)}).`);
    rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  }
}

// A client of the document: reads a customer, a transaction page and an invoice by operationId.
const usage = `import type { operations, paths } from "./api";

type Json<Op extends keyof operations, Status extends number> = operations[Op]["responses"] extends Record<
  Status,
  { content: { "application/json": infer Body } }
>
  ? Body
  : never;

type Customer = Json<"getCustomer", 200>;
type TransactionPage = Json<"listTransactions", 200>;
type Invoice = Json<"getInvoice", 200>;
type Statement = Json<"getStatement", 200>;

export function describe(customer: Customer, page: TransactionPage, invoice: Invoice, statement: Statement): string {
  const balance: string = customer.total_balance;
  const flag: "D" | "S" | null = customer.delete_flag;
  const first = page.results[0];
  const amount: string | undefined = first?.amount;
  const status: "open" | "closed" | "processed" = invoice.invoice_status;
  const lines: number = invoice.transactions.length + statement.transactions.length;
  return [customer.customer_name, balance, flag ?? "", amount ?? "", status, String(lines)].join(" ");
}

export const customerPath: keyof paths = "/api/customers/{id}/";
`;

step("write the document", process.execPath, [
  "--conditions=source",
  "--import",
  "tsx",
  "apps/server/src/cli.ts",
  "openapi",
  "--out",
  documentPath,
]);
step("redocly lint", "npx", ["--no-install", "redocly", "lint", "--config", "redocly.yaml", documentPath]);
step("openapi-typescript", "npx", [
  "--no-install",
  "openapi-typescript",
  documentPath,
  "--output",
  path.join(dir, "api.d.ts"),
]);
writeFileSync(path.join(dir, "use-api.ts"), usage);
step("type-check a client", "npx", [
  "--no-install",
  "tsc",
  "--noEmit",
  "--strict",
  "--noUncheckedIndexedAccess",
  "--target",
  "ES2022",
  "--module",
  "ESNext",
  "--moduleResolution",
  "Bundler",
  path.join(dir, "use-api.ts"),
]);
rmSync(dir, { recursive: true, force: true });
console.log("\nThe OpenAPI document lints clean and its generated client type-checks.");
