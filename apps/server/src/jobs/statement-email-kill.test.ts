import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../db/query-rows.js";
import { dbInt, dbText } from "../db/row-schemas.js";
import { clients, customers } from "../db/tables.js";
import { getProductionRun } from "../modules/production/production-runs.js";
import { startBedProductionRun, startKillTestBed, type KillTestBed } from "../test-support/kill-test-bed.js";
import { startTestSmtp, type TestSmtp } from "../test-support/test-smtp.js";
import { waitFor } from "../test-support/worker-process.js";

// A run's statement emails whose worker process is killed with SIGKILL while the mail server
// stalls on the sixth message (the others were taken): a second worker finishes the emails and every
// customer gets exactly one. PostgreSQL only (several processes on one database).

const CUSTOMERS = 12;
const STALLED = 6;
const EXPIRE_SECONDS = 4;
const CYCLE = 9;
const RUN_DATE = "2025-04-09";

describe.runIf(process.env.TEST_DB === "postgres")("statement emails killed with kill -9 mid-send", () => {
  let bed: KillTestBed;
  let smtp: TestSmtp;
  const startWorker = () => bed.startWorker({ expireSeconds: EXPIRE_SECONDS, smtpUrl: smtp.url });

  beforeAll(async () => {
    smtp = await startTestSmtp();
    bed = await startKillTestBed({ name: "email-kill", closeAlso: () => smtp.close() });
  });
  afterAll(async () => bed?.close());

  it("resumes in a second worker and sends nobody a second email", { timeout: 180_000 }, async () => {
    const { db } = bed.database;
    const [client] = await db
      .insert(clients)
      .values({
        clientNo: 4949,
        clientName: "Email kill test",
        normalCycle: CYCLE,
        dateLastBilling: "2025-03-09",
      })
      .returning();
    if (!client) throw new Error("client not created");
    const addresses = Array.from(
      { length: CUSTOMERS },
      (_, index) => `customer${index + 1}@email-kill.example`,
    );
    await db.insert(customers).values(
      addresses.map((email, index) => ({
        clientId: client.id,
        customerNo: index + 1,
        customerName: `Customer ${index + 1}`,
        pullFlag: "E",
        email,
      })),
    );
    // Deliveries go out in id order: the sixth customer's stalls.
    const stalled = addresses[STALLED - 1] ?? "";
    smtp.stall(stalled);

    const run = await startBedProductionRun(bed, "admin@email-kill.example", {
      cycle: CYCLE,
      runDate: RUN_DATE,
      chunkSize: 50,
    });
    const first = startWorker();
    await waitFor("the sixth email to stall", () => Promise.resolve(smtp.stalled(stalled) === 1), first);
    expect((await getProductionRun(db, run.id)).status).toBe("done");
    // Emails go out side by side: the others are taken while the sixth stalls, each recorded sent
    // as it is accepted; the kill comes once they all are.
    await waitFor(
      "the other emails to be recorded sent",
      async () => {
        const [row] = await queryRows(
          db,
          sql`select count(*)::int as sent from statement_deliveries where client_id = ${client.id} and status = 'sent'`,
          z.object({ sent: dbInt }),
        );
        return row?.sent === CUSTOMERS - 1;
      },
      first,
    );
    expect(smtp.messages).toHaveLength(CUSTOMERS - 1);

    first.child.kill("SIGKILL");
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
    const second = startWorker();
    await waitFor(
      "every email to be sent",
      async () => {
        const [row] = await queryRows(
          db,
          sql`select count(*)::int as sent from statement_deliveries where client_id = ${client.id} and status = 'sent'`,
          z.object({ sent: dbInt }),
        );
        return row?.sent === CUSTOMERS;
      },
      second,
    );

    // Exactly one email each: those sent before the kill were not sent again.
    expect(smtp.messages.map((message) => message.to).sort()).toEqual([...addresses].sort());
    const attempts = await queryRows(
      db,
      sql`select recipient, attempts from statement_deliveries where client_id = ${client.id} order by id`,
      z.object({ recipient: dbText, attempts: dbInt }),
    );
    expect(attempts).toEqual(
      addresses.map((recipient, index) => ({ recipient, attempts: index === STALLED - 1 ? 2 : 1 })),
    );

    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });
});
