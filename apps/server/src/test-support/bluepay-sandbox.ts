import { startSandbox } from "@cyclebill/gateway-sandbox";
import type { Sandbox, SandboxOptions } from "@cyclebill/gateway-sandbox";
import { afterEach } from "vitest";
import { buildRequest, callGateway, queryWindowOf } from "../modules/payments/bluepay-client.js";
import type {
  BluepayCredentials,
  BluepayRequest,
  GatewayCallResult,
} from "../modules/payments/bluepay-client.js";

// What the adapter tests (bluepay-client*.test.ts) share: sandboxes on a fixed clock, closed after
// each test, and helpers that pay through the adapter.

export const CLIENT: BluepayCredentials = {
  accountId: "100000000042",
  secretKey: "CLIENT42SECRETKEY0123456789ABCDE",
};
export const CARD = { kind: "card", number: "4111111111111111", expire: "1299", cvv2: "123" } as const;
/** The sandbox's clock: fixed, so the tests pass on any date. */
export const JUNE_2030 = Date.UTC(2030, 5, 15, 12, 0, 0);
export const RANGE = queryWindowOf(new Date(JUNE_2030), new Date(JUNE_2030));
export const TIMEOUT = { timeoutMs: 10_000 };

export const running: Sandbox[] = [];

export let clock = JUNE_2030;
/** Moves the sandbox's clock on. */
export function advanceClock(ms: number): void {
  clock += ms;
}
export async function sandboxWith(options: SandboxOptions = {}): Promise<Sandbox> {
  clock = JUNE_2030;
  const sandbox = await startSandbox({
    accounts: [CLIENT],
    demoAccount: false,
    now: () => new Date(clock),
    ...options,
  });
  running.push(sandbox);
  return sandbox;
}

export function pay(
  sandbox: Sandbox,
  request: Partial<BluepayRequest>,
  credentials = CLIENT,
): Promise<GatewayCallResult> {
  const full: BluepayRequest = { transType: "SALE", mode: "TEST", ...request };
  return callGateway(sandbox.bp20postUrl, buildRequest(credentials, full), TIMEOUT);
}

export function sale(sandbox: Sandbox, amount: string, extra: Partial<BluepayRequest> = {}) {
  return pay(sandbox, { amount, account: CARD, customer: { name1: "Ann", name2: "Payer" }, ...extra });
}

export function transIdOf(result: GatewayCallResult): string {
  if (result.status === "no-answer") throw new Error(`no answer: ${result.detail}`);
  return result.transId;
}

/** Closes the sandboxes a test started, after each test. */
export function useSandboxes(): void {
  afterEach(async () => {
    await Promise.all(running.splice(0).map((sandbox) => sandbox.close()));
  });
}
