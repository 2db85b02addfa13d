import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isKnownTimeZone } from "@cyclebill/domain";
import { machineTimeZone } from "./clock.js";
import type { DatabaseTarget } from "./db/database.js";

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseTarget;
  jwtSecret: string;
  /** Key that encrypts stored secrets (payment gateway keys) at rest. */
  secretsKey: string;
  smtpUrl: string | null;
  publicUrl: string;
  adminEmail: string | null;
  adminPassword: string | null;
  seedDemo: boolean;
  webDistDir: string;
  logLevel: string;
  /** The provider's IANA time zone: "today", month-to-date and date defaults follow it. */
  timeZone: string;
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
    smtpUrl: env.SMTP_URL?.trim() || null,
    publicUrl: (env.PUBLIC_URL?.trim() || `http://localhost:${port}`).replace(/\/+$/, ""),
    adminEmail: env.BILLING_ADMIN_EMAIL?.trim() || null,
    adminPassword: env.BILLING_ADMIN_PASSWORD || null,
    seedDemo: env.BILLING_DEMO !== "0",
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? defaultWebDist()),
    logLevel: env.LOG_LEVEL ?? "info",
    timeZone: parseTimeZone(env.BILLING_TIME_ZONE),
  };
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
