/** Why a client of the cycle is not billed by a run. */
export type ClientSkipReason =
  | "status_inactive" // I
  | "status_disabled" // D
  | "status_never_process" // N
  | "status_pending" // P
  | "no_bills" // inactive flag C
  | "no_bills_no_reports" // inactive flag D
  | "already_run";

export const CLIENT_SKIP_LABELS: Record<ClientSkipReason, string> = {
  status_inactive: "Status I: inactive",
  status_disabled: "Status D: disabled",
  status_never_process: "Status N: never process",
  status_pending: "Status P: pending",
  no_bills: "Inactive flag C: no bills",
  no_bills_no_reports: "Inactive flag D: no bills, no reports",
  already_run: "Already run for this cycle and month",
};

export const ADMIN_CYCLES = Array.from({ length: 28 }, (_, index) => index + 1);
/** Clients on cycle 99 bill at month end, with cycle 28. */
export const MONTH_END_CYCLE = 99;

/** The normal_cycle values a run of cycle n takes. */
export function clientCyclesOf(cycle: number): number[] {
  return cycle === 28 ? [28, MONTH_END_CYCLE] : [cycle];
}

/** The admin cycle (1-28) a client's normal_cycle bills in. */
export function adminCycleOf(normalCycle: number): number {
  return normalCycle === MONTH_END_CYCLE ? 28 : normalCycle;
}

const STATUS_SKIPS: Record<string, ClientSkipReason> = {
  I: "status_inactive",
  D: "status_disabled",
  N: "status_never_process",
  P: "status_pending",
};

/** Why a client must not bill this run, or null when it bills. */
export function clientSkipReason(input: {
  statusCode: string;
  inactiveFlag: string;
  alreadyRun: boolean;
}): ClientSkipReason | null {
  const status = STATUS_SKIPS[input.statusCode];
  if (status) return status;
  if (input.inactiveFlag === "C") return "no_bills";
  if (input.inactiveFlag === "D") return "no_bills_no_reports";
  if (input.alreadyRun) return "already_run";
  return null;
}
