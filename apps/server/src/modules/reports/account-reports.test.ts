import { eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { addAmounts, negateAmount, parseReportMonth, sumAmounts } from "@cyclebill/domain";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { businessToday, currentClock, setClock } from "../../clock.js";
import { codes, customers, invoices } from "../../db/tables.js";
import { pdfText } from "../../test-support/pdf-text.js";
import type { TenantFixture, TestApp } from "../../test-support/test-app.js";
import { startTenantApp } from "../../test-support/tenant-app.js";
import { postTransaction } from "../transactions/post-transaction.js";
import { emptyRegisterTotals, walkRegister } from "./account-register.js";

let testApp: TestApp;
let fixture: TenantFixture;
const realClock = currentClock();
afterEach(() => setClock(realClock));

/** YYYY-MM `shift` months from the month of `date`. */
function monthFrom(date: string, shift: number): string {
  const index = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + shift;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}
function lastDay(month: string): string {
  const [year, mm] = month.split("-").map(Number);
  return `${month}-${String(new Date(Date.UTC(year!, mm!, 0)).getUTCDate()).padStart(2, "0")}`;
}

// The report month is two months before the clock's, its previous month holds the opening
// balances, and the month after it holds entries the report must leave out.
const today = businessToday();
const month = monthFrom(today, -2);
const before = monthFrom(today, -3);
const after = monthFrom(today, -1);
const monthEnd = lastDay(month);

type Csv = string[][];
function parseCsv(text: string): Csv {
  return text
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
}

let clientId: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  ({ testApp, fixture } = await startTenantApp());
  clientId = fixture.a.clientId;
  const [charge, payment, credit, debit, lateFee] = await testApp.db
    .insert(codes)
    .values([
      { clientId, code: 10, description: "Service", codeType: "charge" },
      { clientId, code: 20, description: "Payment", codeType: "payment" },
      { clientId, code: 30, description: "Credit", codeType: "adjust" },
      { clientId, code: 40, description: "Debit", codeType: "debit" },
      { clientId, code: -1, description: "Late fee", codeType: "charge" },
    ])
    .returning();
  const made = await testApp.db
    .insert(customers)
    .values([
      { clientId, customerNo: 101, customerName: "Ann Able", openDate: `${before}-01` },
      { clientId, customerNo: 102, customerName: "Bob Baker", openDate: `${before}-01` },
      { clientId, customerNo: 103, customerName: "Cy Quiet", openDate: `${before}-01` },
      { clientId, customerNo: 104, customerName: "Dee New", openDate: `${month}-09` },
    ])
    .returning();
  const [ann, bob, cy, dee] = made.map((row) => row.id);
  Object.assign(ids, {
    ann: ann!,
    bob: bob!,
    cy: cy!,
    dee: dee!,
    charge: charge!.id,
    payment: payment!.id,
    credit: credit!.id,
    debit: debit!.id,
    lateFee: lateFee!.id,
  });
  const post = (
    customerId: number,
    codeId: number,
    rate: string,
    serviceDate: string,
    transactionType?: "late_fee" | "recurring",
  ) =>
    postTransaction(
      testApp.db,
      { clientId },
      { customerId, codeId, description: "x", rate, serviceDate, transactionType },
    );
  // Opening balances: Ann 100, Bob 80, Cy 45.50 (and nothing more for Cy: a quiet customer).
  await post(ann!, charge!.id, "100.00", `${before}-10`);
  await post(bob!, charge!.id, "80.00", `${before}-15`);
  await post(cy!, charge!.id, "45.50", `${before}-20`);
  // The month: Ann +50 -30 +7.50 (late fee) +12 (recurring); Bob -5 +2.50; Dee +60.
  await post(ann!, charge!.id, "50.00", `${month}-05`);
  await post(ann!, payment!.id, "30.00", `${month}-10`);
  await post(ann!, lateFee!.id, "7.50", `${month}-28`, "late_fee");
  await post(ann!, charge!.id, "12.00", `${month}-01`, "recurring");
  await post(bob!, credit!.id, "5.00", `${month}-03`);
  await post(bob!, debit!.id, "2.50", `${month}-07`);
  await post(dee!, charge!.id, "60.00", `${month}-09`);
  // After the month: left out of it.
  await post(ann!, charge!.id, "9.99", `${after}-02`);
  await post(dee!, payment!.id, "60.00", `${after}-03`);

  // A void and a reversal, both made on a day of the month: each pair nets to zero in it.
  setClock({ now: () => new Date(`${month}-20T15:00:00Z`) });
  const staff = testApp.client(fixture.a.staffToken);
  const toVoid = await postTransaction(
    testApp.db,
    { clientId },
    { customerId: ann!, codeId: charge!.id, description: "wrong", rate: "20.00", serviceDate: `${month}-12` },
  );
  await staff.post("/api/transactions/make_invoice/", { ids: [toVoid.id] });
  expect((await staff.post(`/api/transactions/${toVoid.id}/void_transaction/`)).status).toBe(201);
  const toReverse = await postTransaction(
    testApp.db,
    { clientId },
    {
      customerId: bob!,
      codeId: charge!.id,
      description: "billed",
      rate: "12.34",
      serviceDate: `${month}-14`,
    },
  );
  const invoice = (await staff.post("/api/transactions/make_invoice/", { ids: [toReverse.id] })).body as {
    id: number;
  };
  await testApp.db.update(invoices).set({ invoiceStatus: "closed" }).where(eq(invoices.id, invoice.id));
  expect((await staff.post(`/api/transactions/${toReverse.id}/reversal/`)).status).toBe(201);
  setClock(realClock);
});
afterAll(async () => testApp?.close());

async function download(path: string, token = fixture.a.ownerToken) {
  const response = await fetch(`${testApp.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

function totalsFigure(csv: Csv, section: string, label: string): string {
  const line = csv.find((row) => row[0] === section && row[2] === label);
  if (!line) throw new Error(`no ${section} line ${label}`);
  return line[4]!;
}

describe("Account Totals", () => {
  it("ties: opening + the month's activity = closing = the customers' balances at month end", async () => {
    const { response, bytes } = await download(`/api/pdf/account-totals/${clientId}/${month}?format=csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain(`.csv`);
    const csv = parseCsv(bytes.toString("utf8"));
    const opening = totalsFigure(csv, "receivables", `Opening receivables ${month}-01`);
    const activity = totalsFigure(csv, "receivables", "Month's activity");
    const closing = totalsFigure(csv, "receivables", `Closing receivables ${monthEnd}`);
    expect(opening).toBe("225.50");
    // 50 - 30 + 7.50 + 12 - 5 + 2.50 + 60; the void and the reversal net to zero.
    expect(activity).toBe("97.00");
    expect(closing).toBe("322.50");
    expect(totalsFigure(csv, "receivables", `Customers' balances as of ${monthEnd}`)).toBe(closing);
    expect(totalsFigure(csv, "receivables", "Out of balance")).toBe("0.00");
    expect(totalsFigure(csv, "charges", "Charges total")).toBe("110.00");
    expect(totalsFigure(csv, "payments", "Payments total")).toBe("-30.00");
    expect(totalsFigure(csv, "credit_adjustments", "Credit adjustments total")).toBe("-5.00");
    expect(totalsFigure(csv, "debit_adjustments", "Debit adjustments total")).toBe("2.50");
    expect(totalsFigure(csv, "late_fees", "Late fees total")).toBe("7.50");
    expect(totalsFigure(csv, "recurring", "Recurring charges total")).toBe("12.00");
    expect(totalsFigure(csv, "ageing", "Total")).toBe(closing);
    // The customers' balances as of the month's last day, read through the list and the summary.
    const list = await testApp
      .client(fixture.a.ownerToken)
      .get("/api/customers/", { as_of: monthEnd, limit: 100 });
    const balances = (list.body as { results: { balance: string }[] }).results.map((row) => row.balance);
    expect(sumAmounts(balances)).toBe(closing);
    const summary = await testApp.client(fixture.a.ownerToken).get(`/api/summary-data/client/${clientId}`, {
      as_of: monthEnd,
    });
    expect(summary.body).toMatchObject({ newBalance: closing, arBalanceAsOfDate: monthEnd });
    const body = summary.body as Record<string, string>;
    expect(totalsFigure(csv, "ageing", "Current")).toBe(body.arCurrentBalance);
    expect(totalsFigure(csv, "ageing", "30 days")).toBe(body.arOverdue30);
    expect(csv.find((row) => row[0] === "customers" && row[2] === "New in the month")?.[3]).toBe("1");
    expect(csv.find((row) => row[0] === "customers" && row[2] === `Active at ${monthEnd}`)?.[3]).toBe("4");
  });

  it("prints the same figures in the PDF, named with the client and the month", async () => {
    const { response, bytes } = await download(`/api/pdf/account-totals/${clientId}/${month}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toMatch(
      new RegExp(`Account Totals \\d+ ${month}\\.pdf`),
    );
    const text = await pdfText(bytes);
    expect(text).toContain("Account Totals");
    expect(text).toMatch(/Opening receivables.*\$225\.50/);
    expect(text).toMatch(/Closing receivables.*\$322\.50/);
    expect(text).not.toContain("OUT OF BALANCE");
  });
});

describe("Account Register", () => {
  it("ties per customer and in total, and its totals equal the totals report's", async () => {
    const { response, bytes } = await download(`/api/pdf/account-register/${clientId}/${month}?format=csv`);
    expect(response.status).toBe(200);
    const csv = parseCsv(bytes.toString("utf8"));
    const header = csv[0]!;
    const col = (name: string) => header.indexOf(name);
    const rows = csv.slice(1);
    const byCustomer = new Map<string, { opening?: string; closing?: string; entries: string[] }>();
    for (const row of rows.filter((line) => line[0] !== "total")) {
      const key = row[col("customer_no")]!;
      const group = byCustomer.get(key) ?? { entries: [] };
      if (row[0] === "opening") group.opening = row[col("amount")];
      if (row[0] === "closing") group.closing = row[col("amount")];
      if (row[0] === "entry") group.entries.push(row[col("amount")]!);
      byCustomer.set(key, group);
    }
    // Cy had no entry in the month: carried in the totals only.
    expect([...byCustomer.keys()].sort()).toEqual(["101", "102", "104"]);
    for (const group of byCustomer.values()) {
      expect(addAmounts(group.opening!, sumAmounts(group.entries))).toBe(group.closing);
    }
    expect(byCustomer.get("101")).toMatchObject({ opening: "100.00", closing: "139.50" });
    expect(byCustomer.get("104")).toMatchObject({ opening: "0.00", closing: "60.00" });
    // Each void or reversal nets its entry to zero.
    const entries = rows.filter((row) => row[0] === "entry");
    const offsets = entries.filter((row) => /^(void|reversal) of #/.test(row[col("mark")]!));
    expect(offsets).toHaveLength(2);
    for (const offset of offsets) {
      const amount = offset[col("amount")]!;
      const original = entries.find(
        (row) =>
          ["voided", "reversed"].includes(row[col("mark")]!) && row[col("amount")] === negateAmount(amount),
      );
      expect(original).toBeDefined();
      expect(offset[col("category")]).toBe(original![col("category")]);
    }
    const total = (category: string) =>
      rows.find((row) => row[0] === "total" && row[col("category")] === category);
    expect(total("opening")?.[col("amount")]).toBe("225.50");
    expect(total("closing")?.[col("amount")]).toBe("322.50");
    expect(total("activity")?.[col("amount")]).toBe("97.00");

    const totals = parseCsv(
      (await download(`/api/pdf/account-totals/${clientId}/${month}?format=csv`)).bytes.toString("utf8"),
    );
    for (const [category, label] of [
      ["charges", "Charges"],
      ["payments", "Payments"],
      ["credit_adjustments", "Credit adjustments"],
      ["debit_adjustments", "Debit adjustments"],
      ["late_fees", "Late fees"],
      ["recurring", "Recurring charges"],
    ] as const) {
      const line = totals.find((row) => row[0] === category && row[2] === `${label} total`)!;
      expect([total(category)?.[col("amount")], total(category)?.[col("count")]]).toEqual([line[4], line[3]]);
    }
  });

  it("walks the customers a page at a time and adds up the same whatever the page size", async () => {
    const reportMonth = parseReportMonth(month)!;
    const seen: string[][] = [];
    for (const pageSize of [1, 2, 3, 1000]) {
      const totals = emptyRegisterTotals();
      const order: string[] = [];
      for await (const group of walkRegister(testApp.db, clientId, reportMonth, totals, pageSize))
        order.push(`${group.customer.customerNo}:${group.lines.length}:${group.closing}`);
      expect([pageSize, totals.customers, totals.opening, totals.activity, totals.closing]).toEqual([
        pageSize,
        // The month's four: the fixture's two customers are opened today, after the month (the
        // totals report's 'Active at' count says the same).
        4,
        "225.50",
        "97.00",
        "322.50",
      ]);
      seen.push(order);
    }
    expect(new Set(seen.map((order) => order.join(" "))).size).toBe(1);
  });

  it("downloads as a PDF named with the client and the month, with every customer of the month", async () => {
    const { response, bytes } = await download(`/api/pdf/account-register/${clientId}/${month}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toMatch(
      new RegExp(`Account Register \\d+ ${month}\\.pdf`),
    );
    const text = await pdfText(bytes);
    for (const name of ["#101", "Ann Able", "#102", "Bob Baker", "#104", "Dee New", "voided", "reversed"])
      expect(text).toContain(name);
    expect(text).not.toContain("Cy Quiet");
    expect(text).toMatch(/Closing balance\s+\$322\.50/);
  });
});

describe("month and tenancy", () => {
  it("answers 400 'Invalid Month' for a month not 1-12 or a malformed year", async () => {
    const owner = testApp.client(fixture.a.ownerToken);
    for (const bad of ["2026-13", "2026-0", "2026-00", "26-10", "abcd-10", "2026", "2026-1x"]) {
      for (const report of ["account-register", "account-totals"]) {
        const response = await owner.get(`/api/pdf/${report}/${clientId}/${bad}`);
        expect([bad, response.status, response.body]).toEqual([bad, 400, { year_month: ["Invalid Month"] }]);
      }
    }
    expect(
      (await download(`/api/pdf/account-totals/${clientId}/${month.replace("-0", "-")}`)).response.status,
    ).toBe(200);
  });

  it("locks owners and staff to their client (another client's id is 404; no client 403) and lets admins name any", async () => {
    const other = fixture.b.clientId;
    for (const report of ["account-register", "account-totals"]) {
      expect((await download(`/api/pdf/${report}/${other}/${month}`)).response.status).toBe(404);
      expect(
        (await download(`/api/pdf/${report}/${other}/${month}`, fixture.a.staffToken)).response.status,
      ).toBe(404);
      expect(
        (await download(`/api/pdf/${report}/${clientId}/${month}`, fixture.a.staffToken)).response.status,
      ).toBe(200);
      expect(
        (await download(`/api/pdf/${report}/${other}/${month}`, fixture.adminToken)).response.status,
      ).toBe(200);
      expect((await download(`/api/pdf/${report}/987654/${month}`, fixture.adminToken)).response.status).toBe(
        404,
      );
      expect(
        (await download(`/api/pdf/${report}/${clientId}/${month}`, fixture.unattachedToken)).response.status,
      ).toBe(403);
      expect((await fetch(`${testApp.baseUrl}/api/pdf/${report}/${clientId}/${month}`)).status).toBe(401);
    }
  });
});

describe("as_of", () => {
  it("ages the summaries and the customer list as of a past day, leaving later entries out", async () => {
    const owner = testApp.client(fixture.a.ownerToken);
    const beforeEnd = lastDay(before);
    const client = await owner.get(`/api/summary-data/client/${clientId}`, { as_of: beforeEnd });
    expect(client.status).toBe(200);
    expect(client.body).toMatchObject({ arBalanceAsOfDate: beforeEnd, newBalance: "225.50" });
    const ann = await owner.get(`/api/summary-data/customer/${ids.ann}`, { as_of: beforeEnd });
    expect(ann.body).toMatchObject({ balance: "100.00" });
    const annBuckets = ann.body as Record<string, string>;
    expect(
      sumAmounts([
        annBuckets.current_balance!,
        annBuckets.overdue_30_days!,
        annBuckets.overdue_60_days!,
        annBuckets.overdue_90_days!,
        annBuckets.overdue_over_90_days!,
      ]),
    ).toBe("100.00");
    // As of the month's end, Ann's charge of the 10th of the month before is 30 days old or more.
    const atEnd = await owner.get(`/api/summary-data/customer/${ids.ann}`, { as_of: monthEnd });
    expect(atEnd.body).toMatchObject({ balance: "139.50" });
    const list = await owner.get("/api/customers/", { as_of: beforeEnd, limit: 100 });
    const rows = (list.body as { results: { id: number; balance: string; current_balance: string }[] })
      .results;
    expect(rows.find((row) => row.id === ids.dee)).toMatchObject({
      balance: "0.00",
      current_balance: "0.00",
    });
    expect(rows.find((row) => row.id === ids.cy)).toMatchObject({
      balance: "45.50",
      current_balance: "45.50",
    });
    // Today (no as_of) the list shows the kept balance, and its ageing sums to it.
    const now = await owner.get("/api/customers/", { limit: 100 });
    const annNow = (now.body as { results: Record<string, string | number>[] }).results.find(
      (row) => row.id === ids.ann,
    )!;
    expect(annNow.balance).toBe("149.49");
    expect(
      sumAmounts(
        [
          "current_balance",
          "overdue_30_days",
          "overdue_60_days",
          "overdue_90_days",
          "overdue_over_90_days",
        ].map((key) => String(annNow[key])),
      ),
    ).toBe("149.49");
    expect((await owner.get(`/api/summary-data/client/${clientId}`, { as_of: "2026-02-30" })).status).toBe(
      400,
    );
  });

  it("gives a customer one ageing today on the record, the list, the Status tab and the CSV", async () => {
    const owner = testApp.client(fixture.a.ownerToken);
    const keys = [
      "current_balance",
      "overdue_30_days",
      "overdue_60_days",
      "overdue_90_days",
      "overdue_over_90_days",
    ];
    const pick = (row: Record<string, unknown>) => keys.map((key) => String(row[key]));
    const status = pick(
      (await owner.get(`/api/summary-data/customer/${ids.ann}`)).body as Record<string, unknown>,
    );
    const record = pick((await owner.get(`/api/customers/${ids.ann}/`)).body as Record<string, unknown>);
    const listed = (await owner.get("/api/customers/", { limit: 100 })).body as {
      results: Record<string, unknown>[];
    };
    const row = pick(listed.results.find((customer) => customer.id === ids.ann)!);
    const { bytes } = await download(`/api/csv/customers/${clientId}`);
    const [header, ...lines] = strFromU8(unzipSync(new Uint8Array(bytes))["customers.csv"]!)
      .trim()
      .split("\r\n")
      .map((line) => line.split(","));
    const csvRow = lines.find((line) => line[header!.indexOf("customer_no")] === "101")!;
    const csv = keys.map((key) => csvRow[header!.indexOf(key)]!);
    expect(csvRow[header!.indexOf("aged_as_of")]).toBe(businessToday());
    expect(sumAmounts(status)).toBe("149.49");
    expect([record, row, csv]).toEqual([status, status, status]);
  });
});
