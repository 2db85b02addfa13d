import { eq, sql } from "drizzle-orm";
import { productionRunSchema } from "@cyclebill/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { clients, customers, recurringCharges } from "../../db/tables.js";
import { ledgerMismatches } from "../ledger/ledger-mismatches.js";
import { monthlyCharge } from "../../test-support/ledger-rows.js";
import { TEST_MAILING_ADDRESS } from "../../test-support/mailing-address.js";
import {
  admin,
  clientId,
  testApp,
  useProductionApp,
  waitForProductionRun,
} from "../../test-support/production-app.js";
import { createCodes } from "../../test-support/test-codes.js";

// A client's part fails for good in its second chunk (a trigger refuses one customer's statement);
// once the cause is gone, a new POST for the same cycle and date resumes it: the chunks done before
// are not done again, the run finishes with every customer billed once. Fixed run date.
const CYCLE = 9;
const RUN_DATE = "2025-05-09";
const CUSTOMERS = 6; // in chunks of 2

let ids: number[] = [];

useProductionApp({
  chunkSize: 2,
  client: { normalCycle: CYCLE, dateLastBilling: "2025-04-09", numberBillsSentYtd: 0 },
});

beforeAll(async () => {
  const { charge: codeId } = await createCodes(testApp.db, clientId, { charge: "charge" });
  ids = (
    await testApp.db
      .insert(customers)
      .values(
        Array.from({ length: CUSTOMERS }, (_, index) => ({
          clientId,
          customerNo: 500 + index,
          customerName: `Retry ${index}`,
          ...TEST_MAILING_ADDRESS,
        })),
      )
      .returning({ id: customers.id })
  )
    .map((row) => row.id)
    .sort((a, b) => a - b);
  await testApp.db
    .insert(recurringCharges)
    .values(ids.map((customerId) => monthlyCharge({ clientId, customerId, codeId }, "10.00")));
  // The chunk of customers 2 and 3 fails on every attempt until the trigger is dropped.
  await testApp.db.execute(
    sql.raw(`create function refuse_statement() returns trigger language plpgsql as $$
      begin
        if new.customer_id = ${ids[3]} then raise exception 'statement refused for the test'; end if;
        return new;
      end $$`),
  );
  await testApp.db.execute(
    sql`create trigger refuse_statement before insert on statements for each row execute function refuse_statement()`,
  );
});

const waitForRun = (id: number) => waitForProductionRun(admin, id, 90_000, 250);

const perCustomer = () =>
  queryRows(
    testApp.db,
    sql`select (select count(*)::int from transactions t where t.client_id = c.client_id and t.customer_id = c.id
                  and t.transaction_type = 'recurring') as recurring,
               (select count(*)::int from statements s where s.client_id = c.client_id and s.customer_id = c.id)
                 as statements
        from customers c where c.client_id = ${clientId} and c.customer_no >= 500 order by c.id`,
    z.object({ recurring: dbInt, statements: dbInt }),
  );

describe("a failed production run", () => {
  it(
    "is resumed by a new POST for the same cycle and date, nothing done twice",
    { timeout: 120_000 },
    async () => {
      const started = await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, {
        run_date: RUN_DATE,
        client_ids: [clientId],
      });
      expect(started.status).toBe(202);
      const first = productionRunSchema.parse(started.body);
      const failed = await waitForRun(first.id);
      expect(failed.status).toBe("failed");
      expect(failed.clients[0]?.error).toEqual(expect.stringContaining("insert into statements"));
      // The chunk before posted and stated; the failing one nothing (rolled back on every attempt).
      const before = await perCustomer();
      expect(before[0]).toEqual({ recurring: 1, statements: 1 });
      expect(before[1]).toEqual({ recurring: 1, statements: 1 });
      expect(before[2]).toEqual({ recurring: 0, statements: 0 });
      expect(before[3]).toEqual({ recurring: 0, statements: 0 });

      // Not skipped as already run: the preview offers the client again.
      const preview = await admin.get(`/api/dailyproduction/cycle/${CYCLE}/`, { run_date: RUN_DATE });
      expect(
        (preview.body as { clients: { client_id: number; skip_reason: string | null }[] }).clients.find(
          (client) => client.client_id === clientId,
        )?.skip_reason,
      ).toBeNull();

      await testApp.db.execute(sql`drop trigger refuse_statement on statements`);
      const again = await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, {
        run_date: RUN_DATE,
        client_ids: [clientId],
      });
      expect(again.status).toBe(202);
      const resumed = productionRunSchema.parse(again.body);
      expect(resumed.id).toBe(first.id);
      const done = await waitForRun(first.id);
      // The fixture's own customers of the client are billed too (no charges, zero balance: mail).
      const all = (await testApp.db.select().from(customers).where(eq(customers.clientId, clientId))).length;
      expect(done).toMatchObject({ status: "done", total: all, done: all });
      expect(done.clients[0]?.figures).toMatchObject({
        customers: all,
        statements: { mail: all },
        recurring: { count: CUSTOMERS, total: "60.00" },
      });
      expect(await perCustomer()).toEqual(ids.map(() => ({ recurring: 1, statements: 1 })));
      const [client] = await testApp.db.select().from(clients).where(eq(clients.id, clientId));
      expect(client).toMatchObject({
        cycleRan: true,
        dateLastBilling: RUN_DATE,
        numberBillsSentYtd: all,
      });
      expect(await ledgerMismatches(testApp.db)).toEqual([]);

      // Done now: a further POST answers the run and posts nothing.
      const third = await admin.post(`/api/dailyproduction/cycle/${CYCLE}/`, {
        run_date: RUN_DATE,
        client_ids: [clientId],
      });
      expect(productionRunSchema.parse(third.body).id).toBe(first.id);
      expect(await perCustomer()).toEqual(ids.map(() => ({ recurring: 1, statements: 1 })));
    },
  );
});
