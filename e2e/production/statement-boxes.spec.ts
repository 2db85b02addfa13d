import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { addDays, usDate } from "@cyclebill/domain";
import { appToday } from "../support/app-today.js";
import { centsOfShown } from "../support/shown-amounts.js";
import {
  createCode,
  postEntry,
  runCycle,
  waitUntil,
  type ApiSession,
  type CustomerFixture,
} from "../support/api.js";
import { readOutbox, type OutboxMail } from "../support/auth.js";
import {
  makePayClient,
  payLinkFromStatementEmail,
  storeCard,
  usePaymentWorld,
  type PaymentWorld,
} from "../payments/payment-world.js";

// Issue 28: two consecutive runs of a cycle, then what a customer sees of the second statement: its
// PDF's boxes add up (previous + charges + debits − payments − credits = new balance) and match the
// pay page's amount due; an autopay customer's pay page says what is charged to which card on which
// day, and offers nothing to pay.

const ADMIN_EMAIL = "boxes-admin@example.test";
const ADMIN_PASSWORD = "boxes-Admin-Password-1";
const CYCLE = 17;

const cents = centsOfShown;

/** The `nth` mail (1-based) sent to `email`, once it is in the outbox. */
async function waitForNthMail(world: PaymentWorld, email: string, nth: number): Promise<OutboxMail> {
  let mail: OutboxMail | undefined;
  await waitUntil(
    async () => {
      mail = (await readOutbox(world.server)).filter((candidate) => candidate.to === email)[nth - 1];
      return mail !== undefined;
    },
    `mail ${String(nth)} to ${email}`,
  );
  if (!mail) throw new Error("no mail");
  return mail;
}

/** A statement's PDF as pdftotext reads it (-layout). */
async function pdfText(
  baseUrl: string,
  token: string,
  clientId: number,
  statementId: number,
): Promise<string> {
  const response = await fetch(
    `${baseUrl}/api/statements/${String(statementId)}/pdf/?client_id=${String(clientId)}`,
    {
      headers: { Authorization: `Bearer ${token}` },
    },
  );
  expect(response.status).toBe(200);
  const pdfPath = `/tmp/screens-statement-boxes-${String(statementId)}.pdf`;
  await writeFile(pdfPath, Buffer.from(await response.arrayBuffer()));
  return (await promisify(execFile)("pdftotext", ["-layout", pdfPath, "-"])).stdout;
}

/** The pay link of the `nth` statement email (1-based) sent to `email`. */
async function payLinkOfMail(world: PaymentWorld, email: string, nth: number): Promise<string> {
  // The pay link may sit in a quoted-printable part: undo its soft breaks and "=3D".
  const body = (await waitForNthMail(world, email, nth)).body.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
  return /\/payments\?statement_id=[0-9]+-[0-9a-f]+/.exec(body)?.[0] ?? "";
}

type StatementRow = {
  id: number;
  statement_date: string;
  customer_id: number;
  previous_balance: string;
  new_balance: string;
};

describe("statement boxes and autopay, as a customer sees them", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);

  async function post(
    admin: ApiSession,
    clientId: number,
    who: CustomerFixture,
    code: number,
    rate: string,
    serviceDate: string,
  ) {
    await postEntry(admin, clientId, { customer: who.id, code, description: "Entry", rate, serviceDate });
  }

  test("the second statement's boxes add up; the autopay customer is told the card and date, not asked to pay", async () => {
    const { admin, server } = world.current();
    // Dated by the server's business date, not the machine's calendar.
    const today = await appToday(server.baseUrl);
    const dayFromToday = (days: number) => addDays(today, days);
    const firstRun = dayFromToday(-31);
    const secondRun = dayFromToday(0);
    const between = dayFromToday(-20);
    const pay = await makePayClient(admin, "Boxes Client", { cycle: CYCLE });
    const clientId = pay.client.id;
    const code = async (no: number, description: string, type: string) =>
      (await createCode(admin, clientId, { code: no, description, code_type: type })).id;
    const payment = await code(201, "Payment", "payment");
    const credit = await code(301, "Credit", "adjust");
    const debit = await code(401, "Debit", "debit");

    const carla = await pay.customer("Carla", "Boxes", { email: "carla@example.test", pull_flag: "E" });
    const arlo = await pay.customer("Arlo", "Autopay", { email: "arlo@example.test", pull_flag: "E" });
    await post(admin, clientId, carla, pay.chargeCode, "80.00", dayFromToday(-35));
    await post(admin, clientId, arlo, pay.chargeCode, "20.00", dayFromToday(-35));
    await payLinkFromStatementEmail(world.current(), clientId, CYCLE, firstRun, "carla@example.test");
    const arloFirstLink = await payLinkOfMail(world.current(), "arlo@example.test", 1);

    // The month between the runs: a charge, a payment, a credit and a debit.
    await post(admin, clientId, carla, pay.chargeCode, "45.00", between);
    await post(admin, clientId, carla, payment, "30.00", between);
    await post(admin, clientId, carla, credit, "5.25", between);
    await post(admin, clientId, carla, debit, "2.50", between);
    await post(admin, clientId, arlo, pay.chargeCode, "31.00", between);
    await storeCard(admin, clientId, arlo.id, "5555555555554444", true);

    await runCycle(admin, CYCLE, { run_date: secondRun, client_ids: [clientId] });
    const carlaLink = await payLinkOfMail(world.current(), "carla@example.test", 2);
    const listed = await admin.request<{ results: StatementRow[] }>(
      "GET",
      `statements/?client_id=${clientId}&customer_id=${carla.id}`,
    );
    const statement = listed.results.find((row) => row.statement_date === secondRun);
    if (!statement) throw new Error(`no statement of ${secondRun}: ${JSON.stringify(listed.results)}`);
    const first = listed.results.find((row) => row.statement_date === firstRun);
    expect(first?.new_balance).toBe("80.00");

    // The PDF, read as the customer reads it: the boxes in the order they add.
    const stdout = await pdfText(server.baseUrl, admin.token, clientId, statement.id);
    const lines = stdout.split("\n");
    const labels = lines.findIndex((line) => /PREVIOUS BALANCE\s+CHARGES/i.test(line));
    expect(labels, stdout).toBeGreaterThan(-1);
    expect(lines[labels]?.replace(/\s+/g, " ").trim().toUpperCase()).toBe(
      "PREVIOUS BALANCE CHARGES DEBITS PAYMENTS CREDITS NEW BALANCE",
    );
    const values = (lines.slice(labels + 1).find((line) => line.includes("$")) ?? "").match(
      /\(?-?\$[\d,]+\.\d{2}\)?/g,
    );
    expect(values).toEqual(["$80.00", "$45.00", "$2.50", "-$30.00", "-$5.25", "$92.25"]);
    const figures = (values ?? []).map(cents);
    const newBalance = figures.pop();
    expect(figures.reduce((sum, value) => sum + value, 0)).toBe(newBalance);

    // The pay page asks for the same new balance.
    const page = await world.openPage({ anonymous: true });
    await page.goto(carlaLink);
    await page.getByText(/Carla Boxes/).waitFor();
    await page.getByText(/^\$92\.25 · Due/).waitFor();
    expect(await page.getByLabel(/^Amount/).inputValue()).toBe("92.25");
    await page.screenshot({ path: "/tmp/screens-statement-boxes-pay.png", fullPage: true });

    // The autopay customer: his email and statement say what is charged to which card on which day
    // (never before the day after the statement), and ask for nothing.
    const arloMail = await waitForNthMail(world.current(), "arlo@example.test", 2);
    const noticePattern =
      /Autopay: \$51\.00 will be charged to your MC ending 4444 on (\d{2})\/(\d{2})\/(\d{4})\. Nothing to pay\./;
    const inMail = noticePattern.exec(arloMail.body.replace(/=\r?\n/g, ""));
    expect(inMail, arloMail.body).not.toBeNull();
    const chargeDate = `${inMail?.[3] ?? ""}-${inMail?.[1] ?? ""}-${inMail?.[2] ?? ""}`;
    expect(chargeDate > secondRun).toBe(true);
    expect(arloMail.subject).toContain(`$51.00 by autopay on ${usDate(chargeDate)}`);
    expect(arloMail.body).not.toMatch(/statement_id=|Pay your statement|Amount due/i);

    const arloStatement = (
      await admin.request<{ results: StatementRow[] }>(
        "GET",
        `statements/?client_id=${clientId}&customer_id=${arlo.id}`,
      )
    ).results.find((row) => row.statement_date === secondRun);
    const arloPdf = (await pdfText(server.baseUrl, admin.token, clientId, arloStatement?.id ?? 0)).replace(
      /\s+/g,
      " ",
    );
    expect(arloPdf).toContain(
      `Autopay: $51.00 will be charged to your MC ending 4444 on ${usDate(chargeDate)}. Nothing to pay.`,
    );
    expect(arloPdf).toContain("Paid by autopay: nothing to send.");
    expect(arloPdf).not.toMatch(/Amount Due|Pay online|with your payment/i);

    // His earlier statement's pay link, opened now: its $20.00 went forward into the latest
    // statement, so the page says so and shows that one, as the documents list does (the earlier one
    // carried forward, nothing due on it): the autopay notice, and nothing to pay by hand (failed
    // before: it asked for the earlier $20.00 beside the $51.00 autopay charge).
    const earlier = await world.openPage({ anonymous: true });
    await earlier.goto(arloFirstLink);
    await earlier.getByText(/Arlo Autopay/).waitFor();
    await earlier.getByText("This link is for an earlier statement").waitFor();
    await earlier.getByText("Latest statement", { exact: true }).waitFor();
    await earlier.getByText(/\$51\.00 will be charged to your MC ending 4444/).waitFor();
    expect(await earlier.getByText(/^\$20\.00/).count()).toBe(0);
    expect(await earlier.getByRole("button", { name: /^Pay / }).count()).toBe(0);
    await earlier.screenshot({ path: "/tmp/screens-statement-boxes-autopay.png", fullPage: true });
    await earlier.setViewportSize({ width: 390, height: 844 });
    await earlier.screenshot({ path: "/tmp/screens-statement-boxes-autopay-390.png", fullPage: true });
  }, 240_000);
});
