import { luhnValid, type TransactionRecord } from "@cyclebill/domain";
import { sql } from "drizzle-orm";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbText } from "../../db/row-schemas.js";
import {
  MASTERCARD,
  VISA,
  cardPayment,
  customerWithStatement,
  makePayment,
  usePaymentFixture,
} from "../../test-support/payment-fixture.js";

// No card number or CVV is ever stored or logged: run every kind of payment, then read every row of
// every table as text, and the server's whole log, looking for them.

const AMEX = "378282246310005";
const CVVS = ["9173", "846", "5928"];
const ROUTING = "123456780";
const BANK_ACCOUNT = "4455667788";

const log: string[] = [];
const logStream = new PassThrough();
logStream.on("data", (chunk: Buffer) => log.push(chunk.toString("utf8")));
const fixture = usePaymentFixture({ logStream });

/** Digit runs of 13-19 that pass Luhn, not part of a longer hex or alphanumeric token. */
function luhnRuns(text: string): string[] {
  return [...text.matchAll(/(?<![0-9A-Za-z])\d{13,19}(?![0-9A-Za-z])/g)]
    .map((match) => match[0])
    .filter((digits) => luhnValid(digits));
}

/** The log's lines without pino's own numbers (epoch-millisecond time, response time, pid). */
function logText(): string {
  return log
    .join("")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const {
        time: _time,
        responseTime: _responseTime,
        pid: _pid,
        ...rest
      } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(rest);
    })
    .join("\n");
}

// Not a timestamp's milliseconds either ("…:13.846+00"): times kept at the app clock's millisecond
// (went_out, access reviews) hold any three digits there, a CVV's among them once in a while.
const standalone = (value: string) => new RegExp(`(?<![0-9])(?<!:[0-9]{2}\\.)${value}(?![0-9])`);

async function everyRowAsText(): Promise<string> {
  const tables = await queryRows(
    fixture.testApp.db,
    sql`select table_schema as schema, table_name as name from information_schema.tables
        where table_type = 'BASE TABLE'
          -- drizzle's own bookkeeping holds migration times in epoch milliseconds (13 digits)
          and table_schema not in ('pg_catalog', 'information_schema', 'drizzle')`,
    z.object({ schema: dbText, name: dbText }),
  );
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await queryRows(
      fixture.testApp.db,
      sql.raw(`select t::text as row from "${table.schema}"."${table.name}" t`),
      z.object({ row: dbText }),
    );
    for (const row of rows) parts.push(row.row);
  }
  return parts.join("\n");
}

describe("card data", () => {
  it("is found nowhere in the database or the server's log after every kind of payment", async () => {
    const { a } = fixture.tenants;
    const { customerId, token } = await customerWithStatement(fixture.testApp, a.clientId, "90.00");
    const post = (body: unknown, key: string, bearer?: string) =>
      makePayment(fixture.testApp, body, key, bearer);
    const results = [
      // The public page no longer stores a method (issue 29): staff store one below (scan-3).
      await post(cardPayment(token, "11.00", { cvv: CVVS[0] }), "scan-1"),
      await post(cardPayment(token, "12.00", { ccNum: MASTERCARD, cvv: CVVS[1] }), "scan-2"),
      await post(
        cardPayment("", "0.00", {
          statementId: undefined,
          customer_id: customerId,
          ccNum: AMEX,
          cvv: CVVS[2],
          recordPayment: true,
        }),
        "scan-3",
        a.staffToken,
      ),
      await post(
        { customer_id: customerId, paymentMethod: "useSaved", amount: "13.00" },
        "scan-4",
        a.staffToken,
      ),
      await post(
        {
          customer_id: customerId,
          paymentMethod: "check",
          checkRoutingNum: ROUTING,
          checkAccountNum: BANK_ACCOUNT,
          amount: "15.00",
        },
        "scan-5",
        a.staffToken,
      ),
      // Refused by validation: the number must not be echoed or logged either.
      await post(cardPayment(token, "17.00", { ccNum: "4111111111111112", cvv: CVVS[0] }), "scan-6"),
    ];
    expect(results.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 400]);
    expect(results.slice(0, 5).map((response) => (response.body as { approved: boolean }).approved)).toEqual([
      true,
      false,
      true,
      true,
      true,
    ]);
    const staff = fixture.testApp.client(a.staffToken);
    const entries = await staff.get("/api/transactions/", { customer__id: customerId });
    const card = (entries.body as { results: TransactionRecord[] }).results.find((e) => e.amount === "11.00");
    expect((await staff.post(`/api/transactions/${card?.id}/reversal/`)).status).toBe(201);

    const database = await everyRowAsText();
    const logged = logText();
    expect(logged).toContain("/api/payments/make-payment/customer/");
    for (const [where, text] of [
      ["database", database],
      ["log", logged],
    ] as const) {
      for (const number of [VISA, MASTERCARD, AMEX, "4111111111111112", BANK_ACCOUNT])
        expect(text.includes(number), `${number} in the ${where}`).toBe(false);
      for (const cvv of CVVS) {
        // The text around a find, so a failure says where it stood.
        const found = standalone(cvv).exec(text);
        const around = found ? text.slice(Math.max(0, found.index - 40), found.index + 40) : "";
        expect(found === null, `CVV ${cvv} in the ${where}: …${around}…`).toBe(true);
      }
      expect(luhnRuns(text), `Luhn-valid numbers in the ${where}`).toEqual([]);
    }
    // What is kept instead: the mask and the gateway's token.
    expect(database).toContain("xxxxxxxxxxx0005");
  });
});
