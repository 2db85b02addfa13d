import { and, eq, sql } from "drizzle-orm";
import { unzipSync, strFromU8 } from "fflate";
import {
  parseStatementPayToken,
  poolPageSchema,
  productionRunSchema,
  type PoolRecord,
  type ProductionRun,
} from "@cyclebill/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { customers } from "../../db/tables.js";
import { clients, routePlans, routes, statements } from "../../db/tables.js";
import { queryRows } from "../../db/query-rows.js";
import { dbDecimal, dbInt } from "../../db/row-schemas.js";
import { postInOneTransaction, serviceCharge } from "../../test-support/ledger-rows.js";
import { pdfText } from "../../test-support/pdf-text.js";
import { pollUntil } from "../../test-support/poll-until.js";
import {
  admin,
  clientId,
  fixture,
  runProductionCycle,
  testApp,
  useProductionApp,
} from "../../test-support/production-app.js";
import { gatewayAccountFields } from "../../test-support/stored-cards.js";
import { createCodes } from "../../test-support/test-codes.js";
import { insertCustomer } from "../../test-support/test-customers.js";
import { createRunDeliveries } from "./create-pools.js";
import { sendStatementEmails } from "./send-statement-emails.js";
import { createMailer } from "../mail/mailer.js";

// A cycle-11 client on a fixed run date (the test passes on any day): mailed customers, two of
// them in a group in stop order, email and mail-and-email customers, a pulled one, an email
// customer without an address, and one whose long history prints on two pages.
const CYCLE = 11;
const RUN_DATE = "2025-06-11";

const ids: Record<string, number> = {};
const idRowSchema = z.object({ id: dbInt });

async function addCustomer(no: number, name: string, fields: Partial<typeof customers.$inferInsert> = {}) {
  const id = await insertCustomer(testApp.db, {
    clientId,
    customerNo: no,
    customerName: name,
    lastName: name,
    address1: `${no} Elm St`,
    ...fields,
  });
  ids[name] = id;
  return id;
}

/** A CSV line's fields: a quoted field may hold a comma ("Springfield, IL 62701"). */
function csvFields(line: string): string[] {
  return [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((match) =>
    (match[1] ?? "").replace(/^"|"$/g, "").replace(/""/g, '"'),
  );
}

/** The run's pools, by the run's id as GET /api/productionruns/{id}/ names it (not its part's). */
async function runPools(): Promise<PoolRecord[]> {
  return pollUntil(
    async () =>
      poolPageSchema.parse(
        (await admin.get("/api/pools/", { client_id: clientId, production_run_id: run.id })).body,
      ).results,
    (pools) => pools.length > 0 && pools.every((pool) => pool.state !== "building"),
    60_000,
  );
}

async function download(name: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const response = await fetch(`${testApp.baseUrl}/api/dailyproduction/download/pool/${name}/`, {
    headers: { authorization: `Bearer ${fixture.adminToken}` },
  });
  return {
    status: response.status,
    headers: response.headers,
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

let run: ProductionRun;
let productionRunId: number;

useProductionApp({
  chunkSize: 3,
  client: {
    normalCycle: CYCLE,
    dateLastBilling: "2025-05-11",
    mailedBillRate: "0.55",
    emailedBillRate: "0.10",
  },
});

beforeAll(async () => {
  // A client that takes card payments: its statements carry a pay link (no-card-payments.test.ts
  // has one that does not).
  await testApp.db
    .update(clients)
    .set(
      gatewayAccountFields(testApp.config.secretsKey, {
        accountId: "100000000111",
        secretKey: "D".repeat(32),
      }),
    )
    .where(eq(clients.id, clientId));
  // The fixture's two customers are mailed; these join them.
  await addCustomer(30, "Zed Route Last");
  await addCustomer(31, "Amy Route First");
  await addCustomer(20, "Ella Email", { pullFlag: "E", email: "ella@example.com" });
  await addCustomer(21, "Bo Both", { pullFlag: "M", email: "bo@example.com" });
  await addCustomer(22, "Nia No Address", { pullFlag: "E", email: "" });
  await addCustomer(23, "Pat Pulled", { pullFlag: "P", pullExplanation: "3" });
  await addCustomer(24, "Lou Long", {});
  const [group] = await testApp.db.insert(routes).values({ clientId, routeName: "Route 1" }).returning();
  await testApp.db.insert(routePlans).values([
    { clientId, routeId: group?.id ?? 0, customerId: ids["Zed Route Last"] ?? 0, stop: 2 },
    { clientId, routeId: group?.id ?? 0, customerId: ids["Amy Route First"] ?? 0, stop: 1 },
  ]);
  const { service } = await createCodes(testApp.db, clientId, {
    service: { code: 501, codeType: "charge", description: "Service" },
  });
  const charge = (customerId: number, amount: string, day: number) =>
    serviceCharge(customerId, service, amount, `2025-06-${String(day).padStart(2, "0")}`, "Monthly service");
  await postInOneTransaction(testApp.db, clientId, [
    ...Object.values(ids).map((id, index) => charge(id, `${10 + index}.25`, 2)),
    // Enough lines that Lou's statement flows onto a second page.
    ...Array.from({ length: 45 }, (_, index) => charge(ids["Lou Long"] ?? 0, "1.00", 1 + (index % 9))),
  ]);
  testApp.mail.refuse("bo@example.com", 1);
  // So the run's id differs from its client part's: the pools filter takes the run's.
  await testApp.db.execute(sql`alter table cycle_runs alter column id restart with 500`);
  run = await runProductionCycle(admin, CYCLE, { run_date: RUN_DATE, client_ids: [clientId] });
  expect(run.status).toBe("done");
  const [part] = await queryRows(
    testApp.db,
    sql`select id from production_runs where client_id = ${clientId} and cycle_run_id = ${run.id}`,
    idRowSchema,
  );
  productionRunId = Number(part?.id);
}, 120_000);

describe("print pools", () => {
  it("puts paper statements in a mail pool and pulled ones in their own, named for a person", async () => {
    const pools = await runPools();
    const byFulfilment = new Map(pools.map((pool) => [pool.fulfilment, pool]));
    expect([...byFulfilment.keys()].sort()).toEqual(["mail", "pulled"]);
    // Each names the run as the filter takes it, not the client's part.
    expect(pools.map((pool) => pool.production_run_id)).toEqual(pools.map(() => run.id));
    const clientNo = (await testApp.db.select().from(clients).where(eq(clients.id, clientId)))[0]?.clientNo;
    const mail = byFulfilment.get("mail");
    expect(mail).toMatchObject({
      pool_name: `${RUN_DATE}-C11-${clientNo}-mail`,
      state: "ready",
      statements: 6, // the fixture's 2, the route's 2, Lou, and Bo (mail and email)
      done: 6,
      pages: 7, // Lou's statement takes two
      cycle: CYCLE,
      client_id: clientId,
    });
    // A cover sheet, then the statement.
    expect(byFulfilment.get("pulled")).toMatchObject({ statements: 1, pages: 2, state: "ready" });
  });

  it("opens the pulled pool with a cover sheet and gives each statement's pull explanation", async () => {
    const [pulled] = (await runPools()).filter((pool) => pool.fulfilment === "pulled");
    if (!pulled) throw new Error("no pulled pool");
    const files = unzipSync((await download(pulled.pool_name)).bytes);
    const text = await pdfText(files[`${pulled.pool_name}.pdf`] ?? new Uint8Array());
    expect(text.indexOf("Pulled statements: keep for the client")).toBeLessThan(text.indexOf("Pat Pulled"));
    const [, row] = strFromU8(files[`${pulled.pool_name}-manifest.csv`] ?? new Uint8Array())
      .trim()
      .split("\r\n");
    expect(row?.split(",")).toEqual(expect.arrayContaining(["Pat Pulled", "Special handling"]));
  });

  it("downloads a zip whose PDF prints the statements in route order and whose manifest matches", async () => {
    const [mail] = (await runPools()).filter((pool) => pool.fulfilment === "mail");
    if (!mail) throw new Error("no mail pool");
    const zip = await download(mail.pool_name);
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-disposition")).toContain(`${mail.pool_name}.zip`);
    const files = unzipSync(zip.bytes);
    expect(Object.keys(files).sort()).toEqual([`${mail.pool_name}-manifest.csv`, `${mail.pool_name}.pdf`]);
    const manifest = strFromU8(files[`${mail.pool_name}-manifest.csv`] ?? new Uint8Array())
      .trim()
      .split("\r\n")
      .map(csvFields);
    expect(manifest[0]).toEqual([
      "sequence",
      "customer_no",
      "customer_name",
      "address_1",
      "address_2",
      "address_3",
      "address_4",
      "pages",
      "amount_due",
      "statement_no",
      "pull_explanation",
    ]);
    const rows = manifest.slice(1);
    // The group in stop order first, then the rest by customer number.
    const mailOrder = [
      "Amy Route First",
      "Zed Route Last",
      "First customer a",
      "Second customer a",
      "Bo Both",
      "Lou Long",
    ];
    expect(rows.map((row) => row[2])).toEqual(mailOrder);
    expect(rows.map((row) => row[0])).toEqual(["1", "2", "3", "4", "5", "6"]);
    expect(rows.find((row) => row[2] === "Lou Long")?.[7]).toBe("2");
    const text = await pdfText(files[`${mail.pool_name}.pdf`] ?? new Uint8Array());
    const order = mailOrder.map((name) => text.indexOf(name));
    expect(
      order.every((position, index) => position >= 0 && (index === 0 || position > (order[index - 1] ?? 0))),
    ).toBe(true);
    for (const row of rows) {
      const [statement] = await testApp.db
        .select()
        .from(statements)
        .where(and(eq(statements.clientId, clientId), eq(statements.statementNum, Number(row[9]))));
      expect(statement?.newBalance).toBe(row[8]);
      expect(statement?.pages).toBe(Number(row[7]));
    }
    // The client pays for one overflow bill this cycle.
    const [client] = await testApp.db.select().from(clients).where(eq(clients.id, clientId));
    expect(client?.numberBillOverflows).toBe(1);
  });

  it("answers 409 for a pool still building and 404 for no such pool; only admins see pools", async () => {
    const [row] = await queryRows(
      testApp.db,
      sql`insert into pools (pool_name, pool_date, cycle, client_id, fulfilment) values
          ('2025-06-11-C11-building-test', '2025-06-11', 11, ${clientId}, 'mail') returning id`,
      idRowSchema,
    );
    const building = await admin.get("/api/dailyproduction/download/pool/2025-06-11-C11-building-test/");
    expect(building.status).toBe(409);
    expect(building.body).toEqual({ detail: "This pool is still building; download it when it is ready." });
    expect((await admin.get("/api/dailyproduction/download/pool/no-such-pool/")).status).toBe(404);
    expect((await admin.delete(`/api/pools/${row?.id}/`)).status).toBe(204);
    for (const token of [fixture.a.ownerToken, fixture.a.staffToken]) {
      const user = testApp.client(token);
      expect((await user.get("/api/pools/")).status).toBe(403);
      expect((await user.get("/api/dailyproduction/download/pool/anything/")).status).toBe(403);
    }
  });
});

describe("statement email", () => {
  it("emails each E and M statement with its PDF and an unguessable pay link, retrying a refusal", async () => {
    const delivered = await pollUntil(
      async () =>
        productionRunSchema.parse((await admin.get(`/api/productionruns/${run.id}/`)).body).clients[0]
          ?.emails,
      (emails) => emails !== undefined && emails.queued + emails.sending === 0 && emails.sent === 2,
      60_000,
    );
    // Nia (E, no email address) gets no statement to email: the run holds it back as cannot deliver.
    expect(delivered).toEqual({ total: 2, queued: 0, sending: 0, sent: 2, failed: 0 });
    for (const [address, name] of [
      ["ella@example.com", "Ella Email"],
      ["bo@example.com", "Bo Both"],
    ] as const) {
      const mail = await testApp.mail.lastTo(address);
      expect(testApp.mail.messages.filter((message) => message.to === address)).toHaveLength(1);
      const [statement] = await testApp.db
        .select()
        .from(statements)
        .where(and(eq(statements.clientId, clientId), eq(statements.customerId, ids[name] ?? 0)));
      if (!statement) throw new Error("no statement");
      expect(mail.subject).toContain("statement");
      expect(mail.text).toContain(`Statement number: ${statement.statementNum}`);
      const link = /http:\/\/billing\.test\/payments\?statement_id=([\w-]+)/.exec(mail.text);
      expect(parseStatementPayToken(link?.[1] ?? "")).toEqual({ clientId, payCode: statement.payCode });
      expect(mail.html).toContain(link?.[0]);
      expect(mail.attachments).toHaveLength(1);
      expect(mail.attachments[0]?.filename).toBe(`Statement ${statement.statementNum}.pdf`);
      expect(mail.attachments[0]?.mimeType).toBe("application/pdf");
      expect(await pdfText(mail.attachments[0]?.content ?? Buffer.alloc(0))).toContain(name);
    }
    const rows = await testApp
      .client(fixture.a.ownerToken)
      .get("/api/statements/", { client_id: clientId, limit: 50 });
    const results = (rows.body as { results: { customer_name: string; email: unknown }[] }).results;
    expect(results.find((row) => row.customer_name === "Bo Both")?.email).toMatchObject({
      status: "sent",
      recipient: "bo@example.com",
      attempts: 2,
    });
    expect(results.find((row) => row.customer_name === "Nia No Address")).toBeUndefined();
    expect(results.find((row) => row.customer_name === "First customer a")?.email).toBeNull();
  });

  it("sends nothing twice when the run's last step or the email job is replayed", async () => {
    const before = testApp.mail.messages.length;
    const jobs = await testApp.db.transaction((tx) => createRunDeliveries(tx, { clientId, productionRunId }));
    expect(jobs).toEqual([]);
    const mailer = createMailer({
      smtpUrl: testApp.mail.url,
      dataDir: testApp.config.dataDir,
      log: { info: () => undefined },
    });
    const again = await sendStatementEmails(
      testApp.db,
      { dataDir: testApp.config.dataDir, publicUrl: testApp.config.publicUrl, mailer },
      { clientId, productionRunId },
    );
    expect(again).toEqual({ sent: 0, failed: 0 });
    expect(testApp.mail.messages.length).toBe(before);
  });
});

describe("deleting a pool", () => {
  it("removes the pool and its zip but never a statement or ledger entry", async () => {
    const [pulled] = (await runPools()).filter((pool) => pool.fulfilment === "pulled");
    if (!pulled) throw new Error("no pulled pool");
    const ledger = sql`select count(*)::int as entries, coalesce(sum(ledger_amount), 0)::text as total,
                          (select count(*)::int from statements where client_id = ${clientId}) as statements,
                          (select sum(total_balance)::text from customers where client_id = ${clientId}) as balances
                       from transactions where client_id = ${clientId}`;
    const ledgerRowSchema = z.object({
      entries: dbInt,
      total: dbDecimal,
      statements: dbInt,
      balances: dbDecimal.nullable(),
    });
    const [before] = await queryRows(testApp.db, ledger, ledgerRowSchema);
    expect((await admin.delete(`/api/pools/${pulled.pool_name}/`)).status).toBe(204);
    expect(await queryRows(testApp.db, ledger, ledgerRowSchema)).toEqual([before]);
    expect((await download(pulled.pool_name)).status).toBe(404);
    expect((await admin.get(`/api/pools/${pulled.pool_name}/`)).status).toBe(404);
    const [pat] = await testApp.db
      .select()
      .from(statements)
      .where(and(eq(statements.clientId, clientId), eq(statements.customerId, ids["Pat Pulled"] ?? 0)));
    expect(pat?.poolId).toBeNull();
    // It was downloaded (above): its record of going out stays, and undo still names it.
    const undo = await admin.post(`/api/productionruns/${run.id}/undo/?client_id=${clientId}`);
    expect(undo.status).toBe(409);
    const wentOut = (undo.body as { went_out: string[] }).went_out;
    expect(
      wentOut.filter((label) => label.includes(pulled.pool_name) && label.endsWith("downloaded")),
    ).toHaveLength(1);
  });
});
