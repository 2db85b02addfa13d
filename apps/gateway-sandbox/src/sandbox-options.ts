import { parseArgs } from "node:util";
import type { SandboxOptions } from "./bluepay-sandbox.js";
import { parseAccounts } from "./sandbox-accounts.js";

// Options from the command line and the environment, shared by the CLI and `npm start`.

export const DEFAULT_SANDBOX_PORT = 4010;

type Env = Record<string, string | undefined>;

function whole(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0 || number > max)
    throw new Error(`${name} must be a whole number from 0 to ${max}, got "${value}"`);
  return number;
}

function rate(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number))
    throw new Error(`${name} must be a number, got "${value}"`);
  return number;
}

/**
 * BLUEPAY_SANDBOX_PORT (default 4010) and BLUEPAY_SANDBOX_ACCOUNTS ("id:secret,..."), overridden by
 * --port, --host, --accounts, --state, --duplicate-window-ms, --latency-ms, --drop-rate, --hang-rate, --seed.
 */
export function sandboxOptionsFrom(args: string[], env: Env = process.env): SandboxOptions {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      accounts: { type: "string" },
      state: { type: "string" },
      "duplicate-window-ms": { type: "string" },
      "latency-ms": { type: "string" },
      "drop-rate": { type: "string" },
      "hang-rate": { type: "string" },
      seed: { type: "string" },
    },
    strict: true,
  });
  const faults = {
    latencyMs: whole("--latency-ms", values["latency-ms"], 0, 600_000),
    dropRate: rate("--drop-rate", values["drop-rate"]) ?? 0,
    hangRate: rate("--hang-rate", values["hang-rate"]) ?? 0,
    seed: whole("--seed", values.seed, 1, 2 ** 32 - 1),
  };
  return {
    port: whole("port", values.port ?? env.BLUEPAY_SANDBOX_PORT, DEFAULT_SANDBOX_PORT, 65_535),
    host: values.host ?? "127.0.0.1",
    accounts: parseAccounts(values.accounts ?? env.BLUEPAY_SANDBOX_ACCOUNTS),
    stateFile: values.state,
    duplicateWindowMs: values["duplicate-window-ms"]
      ? whole("--duplicate-window-ms", values["duplicate-window-ms"], 0, 86_400_000)
      : undefined,
    faults,
  };
}
