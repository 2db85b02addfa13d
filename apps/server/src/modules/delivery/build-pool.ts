import { createWriteStream, type WriteStream } from "node:fs";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { sql } from "drizzle-orm";
import {
  POOL_FULFILMENTS,
  PULL_EXPLANATION_LABELS,
  printedAmountDue,
  isOverflowBill,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Database, Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt, dbText } from "../../db/row-schemas.js";
import { MergedPdf } from "../../pdf/merged-pdf.js";
import { pdfPool } from "../../pdf/pdf-pool.js";
import { toCsvLine } from "../reports/report-csv.js";
import { loadBillClient } from "../invoices/bill-parties.js";
import { setStatementPages } from "../statements/statement-marks.js";
import { addBillOverflows } from "../clients/client-cycle-figures.js";
import { loadStatementDocuments, type LoadedStatement } from "../statements/load-statement-documents.js";
import type { DeliveryServices } from "./delivery-jobs.js";
import type { PoolCover } from "./pool-cover.pdf.js";
import {
  ensurePoolDir,
  poolFiles,
  publishPoolZip,
  removePoolFiles,
  removeWorkFiles,
  openPoolZip,
} from "./pool-files.js";

/**
 * Statements drawn per message to a PDF thread: enough to spread the messaging cost, few enough
 * that the batches read and drawn ahead keep memory well under the pool's bound (+500 MB).
 */
const BATCH = 100;
/** Batches read or drawn ahead per PDF thread: every thread stays busy, memory stays flat. */
const AHEAD_PER_THREAD = 2;

export const MANIFEST_COLUMNS = [
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
] as const;

const poolRowSchema = z.object({
  id: dbInt,
  pool_name: dbText,
  client_id: dbInt.nullable(),
  state: dbText,
  fulfilment: z.enum(POOL_FULFILMENTS),
  statements_count: dbInt,
});
type PoolRow = z.output<typeof poolRowSchema>;
const idRowSchema = z.object({ id: dbInt });
const countedRowSchema = z.object({ counted: dbInt });

/** Whether a pool (any run's) holds this name now. */
async function poolNamed(db: Executor, name: string): Promise<boolean> {
  const rows = await queryRows(db, sql`select id from pools where pool_name = ${name} limit 1`, idRowSchema);
  return rows.length > 0;
}

async function readPool(db: Executor, poolId: number): Promise<PoolRow | undefined> {
  const [pool] = await queryRows(
    db,
    sql`select id, pool_name, client_id, state, fulfilment, statements_count from pools where id = ${poolId}`,
    poolRowSchema,
  );
  return pool;
}

/**
 * The pool's statements (its run's, and the reprints it took) in delivery order: customers in a group by group name and stop (a
 * customer in several groups goes with the first), then the rest by customer number.
 */
async function orderedStatementIds(db: Executor, clientId: number, poolId: number): Promise<number[]> {
  const rows = await queryRows(
    db,
    sql`select s.id
        from statements s
        join customers c on c.client_id = s.client_id and c.id = s.customer_id
        left join lateral (
          select r.route_name, p.stop from route_plans p
          join routes r on r.client_id = p.client_id and r.id = p.route_id
          where p.client_id = s.client_id and p.customer_id = s.customer_id
          order by r.route_name, p.stop limit 1) g on true
        where s.client_id = ${clientId}
          and (s.pool_id = ${poolId}
               -- reprints the pool took from the client's queue (statement-resends.ts)
               or s.id in (select r.statement_id from statement_resends r
                           where r.client_id = ${clientId} and r.channel = 'pool' and r.pool_id = ${poolId}))
        order by g.route_name is null, g.route_name, g.stop, c.customer_no, s.id`,
    idRowSchema,
  );
  return rows.map((row) => row.id);
}

function pullExplanationLabel(code: string): string {
  return code in PULL_EXPLANATION_LABELS && code !== "0"
    ? PULL_EXPLANATION_LABELS[code as keyof typeof PULL_EXPLANATION_LABELS]
    : "";
}

function manifestLine(
  sequence: number,
  statement: LoadedStatement,
  pages: number,
  clientPull: string,
): string {
  const { customer, statement: figures } = statement.document;
  const address = [...customer.addressLines, "", "", "", ""].slice(0, 4);
  const due = printedAmountDue(figures.newBalance);
  // A customer's own pull explanation, else the client's.
  const pull = pullExplanationLabel(statement.pullExplanation) || pullExplanationLabel(clientPull);
  return toCsvLine([
    sequence,
    customer.customerNo,
    customer.name,
    ...address,
    pages,
    due,
    figures.statementNum,
    pull,
  ]);
}

const coverClientRowSchema = z.object({
  client_name: dbText,
  client_no: dbInt,
  address_lines: z.array(dbText),
  alternate_lines: z.array(dbText),
  pull_explanation: dbText,
});
type CoverClient = z.output<typeof coverClientRowSchema>;

/** Pools that ship or stay with the client open with a sheet saying so, and where to. */
async function coverOf(
  db: Executor,
  clientId: number,
  pool: PoolRow,
): Promise<{ cover?: PoolCover; client: CoverClient }> {
  const [client] = await queryRows(
    db,
    sql`select client_name, client_no, pull_explanation,
               array_remove(array[nullif(client_name, ''), nullif(address1, ''), nullif(address2, ''),
                 nullif(address3, ''), nullif(trim(concat_ws(' ', nullif(city, '') || ',', state, zip)), ',')], null)
                 as address_lines,
               array_remove(array[nullif(alternate_name, ''), nullif(alternate_address1, ''),
                 nullif(alternate_address2, ''), nullif(alternate_address3, ''),
                 nullif(trim(concat_ws(' ', nullif(alternate_city, '') || ',', alternate_state, alternate_zip)), ',')],
                 null) as alternate_lines
        from clients where id = ${clientId}`,
    coverClientRowSchema,
  );
  if (!client) throw new Error(`client ${clientId} not found`);
  const count = `${pool.statements_count.toLocaleString("en-US")} statements, in delivery order`;
  const about = [`${client.client_name} (client ${client.client_no})`, `Pool ${pool.pool_name}`, count];
  switch (pool.fulfilment) {
    case "bulk":
      return {
        client,
        cover: { title: "Bulk shipment to the client", lines: about, shipTo: client.address_lines },
      };
    case "alternate":
      return {
        client,
        cover: {
          title: "Shipment to the client's alternate address",
          lines: about,
          shipTo: client.alternate_lines.length > 0 ? client.alternate_lines : client.address_lines,
        },
      };
    case "pulled":
      return {
        client,
        cover: {
          title: "Pulled statements: keep for the client",
          lines: [...about, "Not mailed to the customers; see the manifest for each one's pull explanation."],
          shipTo: [],
        },
      };
    default:
      return { client };
  }
}

async function write(out: WriteStream, text: string): Promise<void> {
  if (out.errored) throw out.errored;
  if (!out.write(text)) await once(out, "drain");
}

/**
 * Builds one pool: its statements drawn in delivery order by the PDF threads, a batch at a time on
 * whichever thread is free (while the next batches are read), each batch's pages appended in order
 * to one merged PDF that streams into the zip as `{pool_name}.pdf`, a manifest CSV beside it; then,
 * in one transaction, each statement's page count, the pool ready and the client's overflow bills.
 * No document is held whole: memory stays flat whatever the pool's size. A build the worker died
 * in starts over (the files are rebuilt; no money moves here): its job's lease lapses within its
 * short expiry (pool-build.job.ts beats while the build makes progress), and the retry takes the
 * pool over. A pool deleted while it builds stops and leaves nothing behind.
 */
export async function buildPool(
  db: Database,
  services: DeliveryServices,
  poolId: number,
  /** Called after each batch: the job's lease runs from the last progress, not from its start. */
  renewLease: () => Promise<void> = async () => undefined,
): Promise<void> {
  const pool = await readPool(db, poolId);
  if (!pool || pool.state !== "building") return;
  const clientId = Number(pool.client_id);
  const name = pool.pool_name;
  // This build owns the pool from now on; one it superseded (a retry after its expiry) stops.
  const builder = randomUUID();
  await db.execute(
    sql`update pools set builder = ${builder}, done = 0, pages_count = 0, error = null where id = ${poolId}`,
  );
  ensurePoolDir(services.dataDir);
  // Work files of a build that died (kill -9) go; a superseded build still running fails on its own.
  removePoolFiles(services.dataDir, name);
  const files = poolFiles(services.dataDir, name, builder);
  const ids = await orderedStatementIds(db, clientId, poolId);
  const client = await loadBillClient(db, clientId);
  const { cover, client: coverClient } = await coverOf(db, clientId, pool);
  const threads = pdfPool();
  const manifest = createWriteStream(files.manifestPart);
  // A write still in flight when a deleted pool's build destroys the stream reports here, not as an
  // uncaught error; a failure while the build goes on is thrown by the next write.
  manifest.on("error", () => undefined);
  const zip = openPoolZip(files, name);
  const merged = new MergedPdf(zip.pdf, name);
  const pagesOf: number[] = [];
  const coverPages = cover ? 1 : 0;
  let overflows = 0;
  let ahead: Promise<unknown>[] = [];
  try {
    await write(manifest, MANIFEST_COLUMNS.join(",") + "\r\n");
    await merged.start();
    // Reads go one after another (one connection's worth); drawing goes to the threads. A failed
    // read or drawing is thrown where it is awaited (the handler only keeps it from counting as
    // unhandled meanwhile).
    let reads: Promise<unknown> = Promise.resolve();
    const launch = (start: number) => {
      const loaded = reads.then(() =>
        loadStatementDocuments(db, clientId, ids.slice(start, start + BATCH), {
          client,
          publicUrl: services.publicUrl,
        }),
      );
      reads = loaded.catch(() => undefined);
      const drawn = loaded.then(async (batch) => ({
        batch,
        drawn: await threads.batch(
          name,
          batch.map((statement) => statement.document),
          start === 0 ? cover : undefined,
        ),
      }));
      drawn.catch(() => undefined);
      return drawn;
    };
    // A pool without statements still gets its (cover) page.
    const starts: number[] = [];
    for (let start = 0; start < Math.max(ids.length, 1); start += BATCH) starts.push(start);
    const window = starts.slice(0, AHEAD_PER_THREAD * threads.size).map(launch);
    ahead = window;
    for (const [position, start] of starts.entries()) {
      const { batch, drawn } = await (window.shift() as ReturnType<typeof launch>);
      const following = starts[position + AHEAD_PER_THREAD * threads.size];
      if (following !== undefined) window.push(launch(following));
      await merged.append(drawn.file);
      for (const [index, statement] of batch.entries()) {
        const count = drawn.pages[index] ?? 1;
        pagesOf.push(count);
        if (isOverflowBill(count)) overflows += 1;
        await write(
          manifest,
          manifestLine(start + index + 1, statement, count, coverClient.pull_explanation),
        );
      }
      const still = await queryRows(
        db,
        sql`update pools set done = ${start + batch.length},
                             pages_count = ${coverPages + pagesOf.reduce((sum, count) => sum + count, 0)}
            where id = ${poolId} and state = 'building' and builder = ${builder} returning id`,
        idRowSchema,
      );
      if (still.length === 0) throw new PoolGone();
      await renewLease();
    }
    manifest.end();
    await once(manifest, "finish");
    await merged.finish();
    const bytes = await zip.finish();
    await db.transaction(async (tx) => {
      const [owned] = await queryRows(
        tx,
        sql`select overflows_counted as counted from pools
            where id = ${poolId} and state = 'building' and builder = ${builder} for update`,
        countedRowSchema,
      );
      if (!owned) throw new PoolGone();
      await tx.execute(
        sql`update pools set state = 'ready', done = ${ids.length}, statements_count = ${ids.length},
                             pages_count = ${coverPages + pagesOf.reduce((sum, count) => sum + count, 0)},
                             file_bytes = ${bytes}, finished_at = now(), overflows_counted = ${overflows}
            where id = ${poolId}`,
      );
      // Only now, with the pool row held as this build's: a build whose pool was withdrawn (an
      // undo) never replaces the zip of a newer pool of the same name.
      publishPoolZip(files);
      await setStatementPages(
        tx,
        clientId,
        ids.map((statementId, index) => ({ statementId, pages: pagesOf[index] ?? 0 })),
      );
      // A pool drawn again (its zip went missing) counted its overflows the first time.
      await addBillOverflows(tx, clientId, overflows - owned.counted);
    });
  } catch (error) {
    // Reads and drawings still under way finish first: nothing touches the pool after this.
    await Promise.allSettled(ahead);
    manifest.destroy();
    zip.abort();
    removeWorkFiles(files);
    if (error instanceof PoolGone) {
      // Deleted while it built: nothing may stay behind (a superseded build leaves the zip alone,
      // and so does one whose name a newer pool has taken since, as a re-run after an undo does).
      if (!(await readPool(db, poolId)) && !(await poolNamed(db, name)))
        removePoolFiles(services.dataDir, name);
      return;
    }
    await db.execute(
      sql`update pools set error = ${error instanceof Error ? error.message : String(error)} where id = ${poolId}`,
    );
    throw error;
  }
}

/** The pool was deleted (or finished elsewhere) while this build ran. */
class PoolGone extends Error {
  constructor() {
    super("the pool is no longer building");
  }
}

/** A pool whose build ran out of retries. */
export async function failPool(db: Executor, poolId: number, message: string): Promise<void> {
  await db.execute(
    sql`update pools set state = 'failed', error = coalesce(error, ${message}), finished_at = now()
        where id = ${poolId} and state = 'building'`,
  );
}
