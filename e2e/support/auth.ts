import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import type { RunningServer } from "./server.js";

/** Fills and submits the login form on the current page (it must be the login page). */
export async function logInThroughForm(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel("Username or email").fill(username);
  // Mantine appends " *" to required labels, so match the start of the name.
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** Opens the login page and logs in; resolves once the app has left the login page. */
export async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto("/");
  await logInThroughForm(page, username, password);
  await page.waitForURL((url) => url.pathname !== "/");
}

export type Registration = { firstName: string; lastName: string; email: string; password: string };

/** Registers a user through the API, as the Register page does; the server's answer. */
export function registerUser(server: RunningServer, user: Registration): Promise<Response> {
  return fetch(`${server.baseUrl}/api/register/`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...user, confirmPassword: user.password }),
  });
}

/**
 * Follows a registration's emailed link through the API (with the password chosen), so the new
 * account can sign in; the browser's own journey through the link is register-reset-login.spec.ts.
 */
export async function confirmRegistration(
  server: RunningServer,
  email: string,
  password: string,
): Promise<void> {
  const mail = await waitForMail(server, email);
  const params = new URLSearchParams(firstLinkPath(mail).split("?")[1] ?? "");
  const response = await fetch(`${server.baseUrl}/api/register/confirm/`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ email: params.get("email"), token: params.get("token"), password }),
  });
  if (!response.ok)
    throw new Error(`confirming ${email} answered ${response.status}: ${await response.text()}`);
}

export type DemoLogin = { email: string; password: string; role: string };

/**
 * The demo logins the server prints once after its first start (see bootstrap.ts), e.g.
 * "  owner@greenway.example  Xy12…  client owner (Greenway Lawn & Garden)".
 */
export async function readDemoLogins(server: RunningServer, timeoutMs = 30_000): Promise<DemoLogin[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const logs = server.logs();
    const start = logs.indexOf("These logins are shown only once:");
    if (start >= 0) {
      const logins: DemoLogin[] = [];
      for (const line of logs.slice(start).split("\n").slice(1)) {
        const match = /^\s+(\S+@\S+)\s+(\S+)\s+(.+?)\s*$/.exec(line);
        if (!match) {
          if (logins.length > 0) break;
          continue;
        }
        logins.push({ email: match[1] ?? "", password: match[2] ?? "", role: match[3] ?? "" });
      }
      if (logins.length > 0) return logins;
    }
    if (Date.now() > deadline) throw new Error(`No demo logins in the server output:\n${logs}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function demoLogin(logins: readonly DemoLogin[], email: string): DemoLogin {
  const login = logins.find((candidate) => candidate.email === email);
  if (!login) throw new Error(`No demo login for ${email}; got ${logins.map((l) => l.email).join(", ")}`);
  return login;
}

export type OutboxMail = { to: string; subject: string; body: string };

/** Mail the server wrote to DATA_DIR/outbox (no SMTP_URL), oldest first, bodies decoded. */
export async function readOutbox(server: RunningServer): Promise<OutboxMail[]> {
  const dir = path.join(server.dataDir, "outbox");
  let files: string[];
  try {
    files = (await readdir(dir)).filter((file) => file.endsWith(".eml")).sort();
  } catch {
    return [];
  }
  return Promise.all(files.map(async (file) => parseEml(await readFile(path.join(dir, file), "utf8"))));
}

/** Polls the outbox until a mail to `to` arrives. */
export async function waitForMail(
  server: RunningServer,
  to: string,
  timeoutMs = 10_000,
): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = (await readOutbox(server)).filter((candidate) => candidate.to === to).at(-1);
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`No mail to ${to} in ${server.dataDir}/outbox`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The first link in a mail body, as a path + query relative to the app (the mail names PUBLIC_URL's host). */
export function firstLinkPath(mail: OutboxMail): string {
  const match = /https?:\/\/\S+/.exec(mail.body);
  if (!match) throw new Error(`No link in the mail:\n${mail.body}`);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
}

function parseEml(raw: string): OutboxMail {
  const separator = raw.indexOf("\n\n");
  const headerText = raw.slice(0, separator).replace(/\n\s+/g, " ");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(headerText)?.[1]?.trim() ?? "";
  const body = raw.slice(separator + 2);
  const quotedPrintable = /quoted-printable/i.test(header("Content-Transfer-Encoding"));
  return {
    to: header("To"),
    subject: header("Subject"),
    body: quotedPrintable ? decodeQuotedPrintable(body) : body,
  };
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** Uncaught page errors only: a failed request (a 400 on a wrong password) also logs a console error. */
export function uncaught(errors: readonly string[]): string[] {
  return errors.filter((error) => error.startsWith("pageerror:"));
}
