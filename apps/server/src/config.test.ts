import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "cyclebill-config-"));
  dirs.push(dir);
  return dir;
}

describe("configuration from the environment", () => {
  it("defaults to port 8080 and PGlite in the data directory, with demo data", () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(8080);
    expect(config.database).toEqual({ kind: "pglite", dataDir: path.join(dataDir, "pglite") });
    expect(config.seedDemo).toBe(true);
    expect(config.publicUrl).toBe("http://localhost:8080");
  });

  it("takes the provider's time zone from BILLING_TIME_ZONE, the machine's by default", () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir, BILLING_TIME_ZONE: "America/Chicago" }).timeZone).toBe(
      "America/Chicago",
    );
    expect(loadConfig({ DATA_DIR: dataDir }).timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(() => loadConfig({ DATA_DIR: dataDir, BILLING_TIME_ZONE: "Mars/Olympus" })).toThrow(
      /BILLING_TIME_ZONE must be an IANA time zone/,
    );
  });

  it("holds provider admins at second-factor enrolment unless ADMIN_SECOND_FACTOR=optional", () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir }).adminSecondFactor).toBe("required");
    expect(loadConfig({ DATA_DIR: dataDir, ADMIN_SECOND_FACTOR: "optional" }).adminSecondFactor).toBe(
      "optional",
    );
    expect(() => loadConfig({ DATA_DIR: dataDir, ADMIN_SECOND_FACTOR: "sometimes" })).toThrow(
      /ADMIN_SECOND_FACTOR must be required or optional/,
    );
  });

  it("generates a JWT secret once and keeps it in the data directory", () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(64);
    expect(readFileSync(path.join(dataDir, "jwt-secret"), "utf8")).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "given" }).jwtSecret).toBe("given");
  });

  it("switches to PostgreSQL with DATABASE_URL and reads the other settings", () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      DATABASE_URL: "postgres://billing@db.internal:5432/billing",
      PORT: "9090",
      PUBLIC_URL: "https://billing.example.com/",
      SMTP_URL: "smtp://mail.example.com:587",
      BILLING_ADMIN_EMAIL: "boss@example.com",
      BILLING_ADMIN_PASSWORD: "secret-pass",
      BILLING_DEMO: "0",
      JWT_SECRET: "x",
    });
    expect(config.database).toEqual({ kind: "postgres", url: "postgres://billing@db.internal:5432/billing" });
    expect(config).toMatchObject({
      port: 9090,
      publicUrl: "https://billing.example.com",
      smtpUrl: "smtp://mail.example.com:587",
      adminEmail: "boss@example.com",
      adminPassword: "secret-pass",
      seedDemo: false,
    });
  });

  it("trusts X-Forwarded-For only from the proxies listed in TRUST_PROXY", () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "x" }).trustProxy).toEqual([]);
    expect(
      loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "x", TRUST_PROXY: " 10.0.0.5, 172.16.0.0/12,::1,loopback" })
        .trustProxy,
    ).toEqual(["10.0.0.5", "172.16.0.0/12", "::1", "loopback"]);
    for (const bad of ["true", "10.0.0.0/33", "proxy.example.com", "10.0.0.1/8/9"])
      expect(() => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "x", TRUST_PROXY: bad })).toThrow(
        /TRUST_PROXY/,
      );
  });

  it("refuses a PORT that is not a port number", () => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), PORT: "eighty", JWT_SECRET: "x" })).toThrow(
      /PORT must be a port number/,
    );
  });

  it("runs job workers by default and reads the job engine's settings", () => {
    const defaults = loadConfig({ DATA_DIR: tempDir(), JWT_SECRET: "x" }).jobs;
    expect(defaults).toEqual({
      workers: 1,
      maintenanceSeconds: 30,
      expireSeconds: null,
      pollSeconds: 2,
      chunkSize: 500,
    });
    const given = loadConfig({
      DATA_DIR: tempDir(),
      JWT_SECRET: "x",
      WORKERS: "0",
      JOB_MAINTENANCE_SECONDS: "1",
      JOB_EXPIRE_SECONDS: "4",
      JOB_POLL_SECONDS: "0.5",
      JOB_CHUNK_SIZE: "5",
    }).jobs;
    expect(given).toEqual({
      workers: 0,
      maintenanceSeconds: 1,
      expireSeconds: 4,
      pollSeconds: 0.5,
      chunkSize: 5,
    });
  });

  it("refuses job settings out of range", () => {
    const load = (env: Record<string, string>) => () =>
      loadConfig({ DATA_DIR: tempDir(), JWT_SECRET: "x", ...env });
    expect(load({ WORKERS: "-1" })).toThrow('WORKERS must be a whole number from 0 to 32, got "-1"');
    expect(load({ WORKERS: "two" })).toThrow("WORKERS must be a whole number");
    expect(load({ JOB_POLL_SECONDS: "0.1" })).toThrow("JOB_POLL_SECONDS must be a number of seconds");
    expect(load({ JOB_CHUNK_SIZE: "0" })).toThrow("JOB_CHUNK_SIZE must be a whole number from 1 to 5000");
  });

  it("reads the card gateway: BLUEPAY_URL (none by default), BLUEPAY_MODE (TEST by default) and the time-out", () => {
    const dataDir = tempDir();
    expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "x" }).bluepay).toEqual({
      url: null,
      mode: "TEST",
      timeoutMs: 30_000,
    });
    const live = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: "x",
      BLUEPAY_URL: "https://secure.bluepay.com/interfaces/bp20post",
      BLUEPAY_MODE: "live",
      BLUEPAY_TIMEOUT_SECONDS: "45",
    }).bluepay;
    expect(live).toEqual({
      url: "https://secure.bluepay.com/interfaces/bp20post",
      mode: "LIVE",
      timeoutMs: 45_000,
    });
    for (const [name, value] of [
      ["BLUEPAY_URL", "secure.bluepay.com"],
      ["BLUEPAY_URL", "ftp://gateway.example.com/"],
      ["BLUEPAY_MODE", "PROD"],
      ["BLUEPAY_TIMEOUT_SECONDS", "0"],
    ] as const)
      expect(() => loadConfig({ DATA_DIR: dataDir, JWT_SECRET: "x", [name]: value })).toThrow(name);
  });
});
