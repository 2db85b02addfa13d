import { strFromU8, unzipSync } from "fflate";
import { sumAmounts } from "@cyclebill/domain";
import { describe, expect, it } from "vitest";
import { businessToday } from "../../clock.js";
import {
  testApp,
  fixture,
  lastDay,
  month,
  before,
  monthEnd,
  clientId,
  ids,
  download,
  useAccountReportsWorld,
} from "../../test-support/account-reports-world.js";

useAccountReportsWorld();

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
