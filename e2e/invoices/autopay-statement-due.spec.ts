import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { beforeEach, describe, expect, test } from "vitest";
import type { ApiSession } from "../support/api.js";
import { uncaught } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

// Issue 41 point 7: an autopay customer's statement announces its charge (no Amount Enclosed, no
// "Due on receipt"), and Invoices & Statements shows the date the PDF prints, not the terms' date.

type ApiDocument = {
  document: "invoice" | "statement";
  id: number;
  invoice_num: number;
  customer_id: number;
  amount: string;
  due_date: string | null;
  autopay: boolean;
};
type ApiPage = { count: number; results: ApiDocument[] };

const OWNER_EMAIL = "owner@greenway.example";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const [usDate, screenDate] = [
  (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`,
  (iso: string) =>
    `${MONTHS[Number(iso.slice(5, 7)) - 1] ?? ""} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`,
];

describe("an autopay customer's statement", () => {
  const world = useBrowserWorld({ demo: true, api: OWNER_EMAIL, signIn: OWNER_EMAIL });
  let api: ApiSession;
  let page: Page;
  let pageErrors: string[];
  beforeEach(() => {
    ({ api, page, pageErrors } = world.current());
  });

  test("shows the PDF's autopay date in the list, and the PDF asks for nothing", async () => {
    const listed = await api.request<ApiPage>(
      "GET",
      "invoices-and-statements/?document_type=statements&limit=500",
    );
    const doc = listed.results.find((row) => row.autopay && Number(row.amount) > 0 && row.due_date !== null);
    if (!doc?.due_date) throw new Error("the demo needs an autopay customer's statement with a balance");

    await page.goto(`/invoicesAndStatements?customer_id=${doc.customer_id}&document_type=statements`);
    const row = page
      .getByRole("table", { name: "Invoices and statements" })
      .locator("tbody tr")
      .filter({ has: page.getByRole("button", { name: `Download statement ${doc.invoice_num} PDF` }) });
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    expect(cells[7]).toContain(screenDate(doc.due_date));

    const [file] = await Promise.all([
      page.waitForEvent("download"),
      row.getByRole("button", { name: `Download statement ${doc.invoice_num} PDF` }).click(),
    ]);
    const path = "/tmp/screens-autopay-statement.pdf";
    await file.saveAs(path);
    const text = (await promisify(execFile)("pdftotext", ["-layout", path, "-"])).stdout.replace(/\s+/g, " ");
    expect(text).toContain(`Autopay on ${usDate(doc.due_date)}`);
    expect(text).toMatch(/Autopay: \$[\d,.]+ will be charged to your .+ ending \d{4}/);
    expect(text).not.toMatch(/Amount Enclosed|Due on receipt|On receipt/);
    await page.screenshot({ path: "/tmp/screens-autopay-statement-list.png", fullPage: true });
    expect(uncaught(pageErrors)).toEqual([]);
  });
});
