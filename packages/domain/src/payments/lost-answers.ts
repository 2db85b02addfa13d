// A payment attempt whose gateway answer was lost stays pending until the gateway's query gives a
// definite answer; past this long staff are told to look it up at the gateway themselves.

export const NEEDS_CHECKING_AFTER_MS = 30 * 60_000;
export const NEEDS_CHECKING_MESSAGE =
  "Needs checking at the gateway: its answer was lost and the gateway has not said what happened.";

export function needsCheckingAtGateway(status: string, createdAt: Date, now: Date): boolean {
  return status === "pending" && now.getTime() - createdAt.getTime() > NEEDS_CHECKING_AFTER_MS;
}
