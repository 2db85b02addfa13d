import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { businessToday, currentClock, setClock } from "../clock.js";
import { codes, customers, invoices } from "../db/tables.js";
import type { TenantFixture, TestApp } from "./test-app.js";
import { startTenantApp } from "./tenant-app.js";
import { postTransaction } from "../modules/transactions/post-transaction.js";

// What the Account Reports API tests (account-reports*.test.ts) share: a client with customers and
// entries around a month two months back, and helpers to download and read the reports. The
// bindings are filled by useAccountReportsWorld's hooks; each test file has its own module instance.

export let testApp: TestApp;
export let fixture: TenantFixture;
export const realClock = currentClock();

/** YYYY-MM `shift` months from the month of `date`. */
export function monthFrom(date: string, shift: number): string {
  const index = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + shift;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}
export function lastDay(month: string): string {
  const [year, mm] = month.split("-").map(Number);
  return `${month}-${String(new Date(Date.UTC(year!, mm!, 0)).getUTCDate()).padStart(2, "0")}`;
}

// The report month is two months before the clock's, its previous month holds the opening
// balances, and the month after it holds entries the report must leave out.
export const today = businessToday();
export const month = monthFrom(today, -2);
export const before = monthFrom(today, -3);
export const after = monthFrom(today, -1);
export const monthEnd = lastDay(month);

export type Csv = string[][];
export function parseCsv(text: string): Csv {
  return text
    .trim()
    .split("\r\n")
    .map((line) => line.split(","));
}

export let clientId: number;
export const ids: Record<string, number> = {};

export async function download(path: string, token = fixture.a.ownerToken) {
  const response = await fetch(`${testApp.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

export function totalsFigure(csv: Csv, section: string, label: string): string {
  const line = csv.find((row) => row[0] === section && row[2] === label);
  if (!line) throw new Error(`no ${section} line ${label}`);
  return line[4]!;
}

/** Starts the server and writes the month's data before the file's tests; closes it after. */
export function useAccountReportsWorld(): void {
  afterEach(() => setClock(realClock));
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
      {
        customerId: ann!,
        codeId: charge!.id,
        description: "wrong",
        rate: "20.00",
        serviceDate: `${month}-12`,
      },
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
}
