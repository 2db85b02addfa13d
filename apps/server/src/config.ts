import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { isKnownTimeZone } from "@cyclebill/domain";
import { machineTimeZone } from "./clock.js";
import type { DatabaseTarget } from "./db/database.js";
import { checkedInstallationId, readOrCreateInstallationId } from "./modules/secrets/installation-id.js";

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseTarget;
  jwtSecret: string;
  /** Key that encrypts stored secrets (payment gateway keys) at rest. */
  secretsKey: string;
  /** Prefixes every ORDER_ID sent to the gateway (generated once, like the secrets key). */
  installationId: string;
  smtpUrl: string | null;
  publicUrl: string;
  adminEmail: string | null;
  adminPassword: string | null;
  seedDemo: boolean;
  webDistDir: string;
  logLevel: string;
  /** The provider's IANA time zone: "today", month-to-date and date defaults follow it. */
  timeZone: string;
  jobs: JobSettings;
  /**
   * Reverse proxies (addresses or CIDR ranges) whose X-Forwarded-For names the client; from any
   * other peer the header is ignored, so nobody can pick the address login throttling counts.
   */
  trustProxy: string[];
  bluepay: BluepaySettings;
  /**
   * ADMIN_SECOND_FACTOR: provider admins must set up a second factor before anything else
   * (required, the default), or may (optional: the demo and the tests).
   */
  adminSecondFactor: AdminSecondFactor;
};

export type AdminSecondFactor = "required" | "optional";

/** The card gateway (BluePay 2.0). Each client's account id and secret key live on the client. */
export type BluepaySettings = {
  /** The bp20post address; null when none is configured (payments unavailable). */
  url: string | null;
  /** TEST: BluePay's test mode (nothing settles); LIVE moves money. */
  mode: "TEST" | "LIVE";
  /** How long one gateway call may take before it counts as no answer. */
  timeoutMs: number;
};

/** The job engine (pg-boss) as this process runs it. */
export type JobSettings = {
  /** Jobs this process works on at once, per queue; 0: none (an API process that only enqueues). */
  workers: number;
  /** How often pg-boss looks for jobs whose worker died (active past their expiry) and retries them. */
  maintenanceSeconds: number;
  /** Expiry of every queue instead of each job's own (tests use a few seconds); null: the job's. */
  expireSeconds: number | null;
  /** How often an idle worker asks for a job. */
  pollSeconds: number;
  /** Items per chunk of a chunked job (e.g. customers per ledger-check chunk). */
  chunkSize: number;
};

type Env = Record<string, string | undefined>;

/** Reads configuration from the environment only. */
export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? "data");
  const port = parsePort(env.PORT);
  const databaseUrl = env.DATABASE_URL?.trim();
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    dataDir,
    database: databaseUrl
      ? { kind: "postgres", url: databaseUrl }
      : { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
    jwtSecret: env.JWT_SECRET?.trim() || readOrCreateSecret(dataDir, "jwt-secret"),
    secretsKey: env.BILLING_SECRETS_KEY?.trim() || readOrCreateSecret(dataDir, "secrets-key"),
    installationId: env.BILLING_INSTALLATION_ID?.trim()
      ? checkedInstallationId(env.BILLING_INSTALLATION_ID)
      : readOrCreateInstallationId(dataDir),
    smtpUrl: env.SMTP_URL?.trim() || null,
    publicUrl: (env.PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, ""),
    adminEmail: env.BILLING_ADMIN_EMAIL?.trim() || null,
    adminPassword: env.BILLING_ADMIN_PASSWORD || null,
    seedDemo: env.BILLING_DEMO !== "0",
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? defaultWebDist()),
    logLevel: env.LOG_LEVEL ?? "info",
    timeZone: parseTimeZone(env.BILLING_TIME_ZONE),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    adminSecondFactor: parseAdminSecondFactor(env.ADMIN_SECOND_FACTOR),
    bluepay: {
      url: parseGatewayUrl(env.BLUEPAY_URL),
      mode: parseGatewayMode(env.BLUEPAY_MODE),
      timeoutMs:
        parseWhole("BLUEPAY_TIMEOUT_SECONDS", env.BLUEPAY_TIMEOUT_SECONDS, 30, { min: 1, max: 300 }) * 1000,
    },
    jobs: {
      // Default 1 on both databases: a single `npm start` also works on its jobs; on PostgreSQL,
      // API processes run with WORKERS=0 once `npm run worker` processes do the work.
      workers: parseWhole("WORKERS", env.WORKERS, 1, { min: 0, max: 32 }),
      maintenanceSeconds: parseWhole("JOB_MAINTENANCE_SECONDS", env.JOB_MAINTENANCE_SECONDS, 30, {
        min: 1,
        max: 3600,
      }),
      expireSeconds: env.JOB_EXPIRE_SECONDS?.trim()
        ? parseWhole("JOB_EXPIRE_SECONDS", env.JOB_EXPIRE_SECONDS, 0, { min: 1, max: 86_399 })
        : null,
      pollSeconds: parseSeconds("JOB_POLL_SECONDS", env.JOB_POLL_SECONDS, 2, 0.5),
      chunkSize: parseWhole("JOB_CHUNK_SIZE", env.JOB_CHUNK_SIZE, 500, { min: 1, max: 5000 }),
    },
  };
}

function parseWhole(
  name: string,
  value: string | undefined,
  fallback: number,
  bounds: { min: number; max: number },
): number {
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < bounds.min || number > bounds.max)
    throw new Error(`${name} must be a whole number from ${bounds.min} to ${bounds.max}, got "${value}"`);
  return number;
}

function parseSeconds(name: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number < min || number > 3600)
    throw new Error(`${name} must be a number of seconds from ${min} to 3600, got "${value}"`);
  return number;
}

function parsePort(value: string | undefined): number {
  if (!value) return 8080;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${value}"`);
  return port;
}

function parseTimeZone(value: string | undefined): string {
  const zone = value?.trim();
  if (!zone) return machineTimeZone();
  if (!isKnownTimeZone(zone))
    throw new Error(`BILLING_TIME_ZONE must be an IANA time zone such as America/Chicago, got "${zone}"`);
  return zone;
}

function parseGatewayUrl(value: string | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(
      `BLUEPAY_URL must be an http(s) address such as https://secure.bluepay.com/interfaces/bp20post, got "${text}"`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new Error(`BLUEPAY_URL must be an http(s) address, got "${text}"`);
  return url.toString();
}

// TEST by default: a forgotten setting never moves real money.
function parseGatewayMode(value: string | undefined): "TEST" | "LIVE" {
  const mode = value?.trim().toUpperCase() || "TEST";
  if (mode !== "TEST" && mode !== "LIVE")
    throw new Error(`BLUEPAY_MODE must be TEST or LIVE, got "${value}"`);
  return mode;
}

// Required unless said otherwise: a forgotten setting never leaves admins on a password alone.
function parseAdminSecondFactor(value: string | undefined): AdminSecondFactor {
  const setting = value?.trim().toLowerCase() || "required";
  if (setting !== "required" && setting !== "optional")
    throw new Error(`ADMIN_SECOND_FACTOR must be required or optional, got "${value}"`);
  return setting;
}

/** Names proxy-addr (Fastify's trustProxy) knows for the usual private ranges. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function parseTrustProxy(value: string | undefined): string[] {
  const entries = (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const entry of entries) {
    const [address = "", prefix, extra] = entry.split("/");
    const bits = isIP(address) === 6 ? 128 : 32;
    const validPrefix =
      prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= bits) || isIP(prefix) === 4;
    if (!PROXY_RANGE_NAMES.has(entry) && (isIP(address) === 0 || !validPrefix || extra !== undefined))
      throw new Error(
        `TRUST_PROXY must list proxy addresses or CIDR ranges separated by commas (e.g. 10.0.0.5,172.16.0.0/12), got "${entry}"`,
      );
  }
  return entries;
}

function defaultWebDist(): string {
  // apps/server/{src,dist}/config.* -> apps/web/dist
  return new URL("../../web/dist", import.meta.url).pathname;
}

/** A generated secret kept in the data directory so tokens survive restarts. */
function readOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
