import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import { DEMO_ACCOUNT } from "@cyclebill/gateway-sandbox";
import { describe, expect, test } from "vitest";
import { addDays, usDate } from "@cyclebill/domain";
import { appToday } from "../support/app-today.js";
import { createCode, createCustomer, createCycleClient, postEntry, runCycle } from "../support/api.js";
import { storeCard, usePaymentWorld } from "../payments/payment-world.js";

// Issue 41 point 7: an autopay customer's statement of a client whose terms are "Due on receipt"
// announces its charge (no Amount Enclosed, no "Due on receipt"), and Invoices & Statements shows the
// date the PDF prints (the charge day), not the terms' date (the statement date).

const ADMIN_EMAIL = "autopay-due-admin@example.test";
const ADMIN_PASSWORD = "autopay-Due-Admin-Password-1";
const CYCLE = 19;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const screenDate = (iso: string) =>
  `${MONTHS[Number(iso.slice(5, 7)) - 1] ?? ""} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;

type ApiDocument = { document: string; id: number; invoice_num: number; due_date: string | null };

describe("an autopay customer's statement, due on receipt", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);

  test("the list shows the PDF's autopay date, and the PDF asks for nothing", async () => {
    const { admin, server } = world.current();
    const today = await appToday(server.baseUrl);
    const client = await createCycleClient(admin, "Autopay Due Client", CYCLE, {
      bluepay_account_id: DEMO_ACCOUNT.accountId,
      bluepay_secret_key: DEMO_ACCOUNT.secretKey,
      terms_message: "Due on receipt",
      due_days: 0,
    });
    const code = await createCode(admin, client.id, {
      code: 101,
      description: "Lawn care",
      code_type: "charge",
    });
    const ada = await createCustomer(admin, client.id, {
      first_name: "Ada",
      last_name: "Autopay",
      address1: "12 Elm St",
    });
    await postEntry(admin, client.id, {
      customer: ada.id,
      code: code.id,
      description: "Lawn care",
      rate: "41.00",
      serviceDate: addDays(today, -3),
    });
    await storeCard(admin, client.id, ada.id, "5555555555554444", true);
    await runCycle(admin, CYCLE, { run_date: today, client_ids: [client.id] });

    const listed = await admin.request<{ results: ApiDocument[] }>(
      "GET",
      `invoices-and-statements/?client_id=${client.id}&customer_id=${ada.id}&document_type=statements`,
    );
    const doc = listed.results[0];
    if (!doc?.due_date) throw new Error(`no autopay statement listed: ${JSON.stringify(listed.results)}`);
    // Due on receipt would be today; autopay charges the day after, in the open period.
    expect(doc.due_date).toBe(addDays(today, 1));

    const page = await world.openPage();
    await page.goto(
      `/invoicesAndStatements?client_id=${client.id}&customer_id=${ada.id}&document_type=statements`,
    );
    const download = page.getByRole("button", { name: `Download statement ${doc.invoice_num} PDF` });
    const row = page
      .getByRole("table", { name: "Invoices and statements" })
      .locator("tbody tr")
      .filter({ has: download });
    await row.waitFor();
    expect((await row.locator("td").allTextContents())[7]).toContain(screenDate(doc.due_date));
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: "/tmp/screens-autopay-statement-list.png", fullPage: true });

    const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
    const path = "/tmp/screens-autopay-statement.pdf";
    await file.saveAs(path);
    const text = (await promisify(execFile)("pdftotext", ["-layout", path, "-"])).stdout.replace(/\s+/g, " ");
    await writeFile("/tmp/screens-autopay-statement.txt", text);
    expect(text).toContain(`Autopay on ${usDate(doc.due_date)}`);
    expect(text).toContain(
      `Autopay: $41.00 will be charged to your MC ending 4444 on ${usDate(doc.due_date)}. Nothing to pay.`,
    );
    expect(text).not.toMatch(/Amount Enclosed|Due on receipt|On receipt|Amount Due/i);
  }, 240_000);
});
