import { addAmounts, negateAmount, parseReportMonth, sumAmounts } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { pdfText } from "../../test-support/pdf-text.js";
import { emptyRegisterTotals, walkRegister } from "./account-register.js";
import {
  testApp,
  fixture,
  month,
  monthEnd,
  parseCsv,
  clientId,
  download,
  totalsFigure,
  useAccountReportsWorld,
} from "../../test-support/account-reports-world.js";

useAccountReportsWorld();

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
