import type { StatementDelivery } from "../production/statement-decision.js";

/** How a pool's statements go out on paper. */
export const POOL_FULFILMENTS = ["mail", "bulk", "alternate", "pulled"] as const;
export type PoolFulfilment = (typeof POOL_FULFILMENTS)[number];

export const POOL_FULFILMENT_LABELS: Record<PoolFulfilment, string> = {
  mail: "Mailed to customers",
  bulk: "Bulk shipped to the client",
  alternate: "Shipped to the client's alternate address",
  pulled: "Pulled, kept for the client",
};

export const POOL_STATES = ["building", "ready", "failed"] as const;
export type PoolState = (typeof POOL_STATES)[number];

/**
 * The print pool a produced statement goes into, or null for email only. Paper statements (mail,
 * and mail-and-email) follow the client's bill fulfilment: '' mailed, C bulk shipped to the
 * client, A shipped to its alternate address. Pulled statements (T, P) are printed for the client.
 */
export function poolFulfilmentOf(delivery: StatementDelivery, billFulfilment: string): PoolFulfilment | null {
  if (delivery === "email") return null;
  if (delivery === "pulled") return "pulled";
  if (billFulfilment === "C") return "bulk";
  if (billFulfilment === "A") return "alternate";
  return "mail";
}

/** A name a person can read and the URL can carry: `2026-11-05-C01-1001-mail`. */
export function poolName(input: {
  runDate: string;
  cycle: number;
  clientNo: number;
  fulfilment: PoolFulfilment;
}): string {
  return `${input.runDate}-C${String(input.cycle).padStart(2, "0")}-${input.clientNo}-${input.fulfilment}`;
}

/** The pool's download: the zip named for the pool. */
export function poolZipName(name: string): string {
  return `${name}.zip`;
}

export const POOL_BUILDING_MESSAGE = "This pool is still building; download it when it is ready.";
export const POOL_FAILED_MESSAGE =
  "This pool failed to build; its error is shown with it on Admin Processing.";
export const NOTHING_TO_REBUILD_MESSAGE =
  "Every pool of this run is ready or building: there is no failed, deleted or missing pool to rebuild.";
/** A ready pool whose zip is gone from the disk: its statements are all there to draw it again. */
export const POOL_FILES_MISSING_MESSAGE =
  "This pool's zip is missing: rebuild the run's pools (Rebuild pools in Run history) to draw it again from its statements.";
/** A pool whose client's part of the run was undone (or is being undone) as the download asked. */
export const POOL_WITHDRAWN_MESSAGE = "This pool was withdrawn: its client's part of the run was undone.";

/** Pay links carry the client and the statement's unguessable pay code: `12-3f9a…`. */
export function statementPayToken(clientId: number, payCode: string): string {
  return `${clientId}-${payCode}`;
}

/** Reads a pay token back; null when it is not one. */
export function parseStatementPayToken(token: string): { clientId: number; payCode: string } | null {
  const match = /^([1-9]\d{0,15})-([0-9a-f]{32})$/.exec(token.trim());
  if (!match?.[1] || !match[2]) return null;
  return { clientId: Number(match[1]), payCode: match[2] };
}

/** The public payment page for one statement. */
export function statementPayLink(publicUrl: string, clientId: number, payCode: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/payments?statement_id=${statementPayToken(clientId, payCode)}`;
}

/** A statement printing on more than one page is an overflow bill (the client pays per overflow). */
export function isOverflowBill(pages: number): boolean {
  return pages > 1;
}
