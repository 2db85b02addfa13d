import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbInt, dbText } from "../../db/row-schemas.js";
import { pollUntil } from "../../test-support/poll-until.js";
import { createTenantFixture, startTestApp, type TestApp } from "../../test-support/test-app.js";
import { REFRESH_STATISTICS_CRON, REFRESH_STATISTICS_JOB } from "./refresh-statistics.js";

// PGlite runs no autovacuum, so without this job its planner keeps the statistics of the tables
// as they were at start-up (empty, on a new install) and large lists scan.

let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp({ jobs: { workers: 1 } });
});
afterAll(async () => testApp?.close());

const plannedCustomers = async () => {
  const [row] = await queryRows(
    testApp.db,
    sql`select reltuples::int as tuples from pg_class where relname = 'customers' and relkind = 'r'`,
    z.object({ tuples: dbInt }),
  );
  return row?.tuples ?? 0;
};

// Where autovacuum runs (PostgreSQL with it on), the job leaves the work to it.
const autovacuumRuns = async () =>
  (
    await queryRows(
      testApp.db,
      sql`select exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher') as running`,
      z.object({ running: dbBool }),
    )
  )[0]?.running === true;

describe("refreshing the planner's statistics", () => {
  it("is scheduled every ten minutes", async () => {
    const schedules = await queryRows(
      testApp.db,
      sql`select name, cron from pgboss.schedule where name = ${REFRESH_STATISTICS_JOB}`,
      z.object({ name: dbText, cron: dbText }),
    );
    expect(schedules).toEqual([{ name: REFRESH_STATISTICS_JOB, cron: REFRESH_STATISTICS_CRON }]);
  });

  it("gives the planner the tables' real sizes where no autovacuum does", async ({ skip }) => {
    if (await autovacuumRuns()) skip("autovacuum keeps this server's statistics");
    const fixture = await createTenantFixture(testApp);
    await testApp.db.execute(sql`
      insert into customers (client_id, customer_no, customer_name)
      select ${fixture.a.clientId}::bigint, 10000 + g, 'Statistics ' || g from generate_series(1, 2000) as g`);
    await testApp.jobs!.enqueue(REFRESH_STATISTICS_JOB, {});
    expect(await pollUntil(plannedCustomers, (tuples) => tuples >= 2000, 20_000)).toBeGreaterThanOrEqual(
      2000,
    );
  });
});
