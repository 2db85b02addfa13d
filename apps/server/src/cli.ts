import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { formatDemoLogins } from "./bootstrap.js";
import { loadConfig, type Config } from "./config.js";
import { openDatabase, type Database, type DatabaseHandle } from "./db/database.js";
import { describeApi } from "./http/api-document.js";
import { seedDemo } from "./modules/demo/seed-demo.js";
import { formatDoctorReport, runDoctor } from "./modules/ledger/doctor.js";
import { countUsers, createUser, findUserByEmail } from "./modules/users/create-user.js";
import { isCalendarDate } from "@cyclebill/domain";
import {
  formatGatewayDoctorReport,
  gatewayDoctorHealthy,
  runGatewayDoctor,
} from "./modules/gateway-reconcile/gateway-doctor.js";
import { paymentGatewayOf } from "./modules/payments/payment-gateway.js";
import { attachUser } from "./modules/users/attach-user.js";
import { runAuditDoctor } from "./modules/audit/audit-doctor.js";
import { withAuditActor } from "./modules/audit/audit-context.js";
import { hostname, userInfo } from "node:os";

const usage = `Usage: npm run cli -- <command>
  migrate                                       apply database migrations
  create-admin --email <email> --password <pw>  create a provider admin
  seed-demo                                     add the demo clients, users, customers and postings
  attach-user --email <email> --client <client_no> [--staff]
                                                attach a registered user to a client as owner (or staff)
  doctor [--client <client_no>]                 prove the books: every balance equals its ledger
                                                (prints each mismatch and exits 1 if there is one)
  doctor --gateway [--client <client_no>] [--date <YYYY-MM-DD>]
                                                reconcile a day (default yesterday) with BluePay's
                                                reports for every client with a gateway key (or one);
                                                prints each difference and exits 1 if there is one
  doctor --audit [--client <client_no>]         prove the audit trail: every chain recomputed from its
                                                first row (a changed or removed row exits 1)
  openapi [--out <file>]                        write the OpenAPI document (stdout without --out); no database`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  if (!command || command === "help" || command === "--help") {
    console.log(usage);
    return command ? 0 : 1;
  }
  if (command === "openapi") return writeApiDocument(rest);
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    // What the command changes is recorded as the CLI's doing, from this machine.
    return await withAuditActor(
      {
        kind: "cli",
        userId: null,
        label: `cli: ${command}`,
        address: `${userInfo().username}@${hostname()}`.slice(0, 64),
        userAgent: null,
      },
      () => runCommand(database, config, command, rest),
    );
  } finally {
    await database.close();
  }
}

async function runCommand(
  database: DatabaseHandle,
  config: Config,
  command: string,
  rest: string[],
): Promise<number> {
  {
    switch (command) {
      case "migrate":
        console.log(`Migrations applied (${database.kind}).`);
        return 0;
      case "create-admin": {
        const { values } = parseArgs({
          args: rest,
          options: { email: { type: "string" }, password: { type: "string" } },
        });
        if (!values.email || !values.password) {
          console.error("create-admin needs --email and --password");
          return 1;
        }
        if (values.password.length < 8) {
          console.error("The password must have at least 8 characters.");
          return 1;
        }
        if (await findUserByEmail(database.db, values.email)) {
          console.error(`A user with the email ${values.email} already exists.`);
          return 1;
        }
        await createUser(database.db, { email: values.email, password: values.password, isAdmin: true });
        console.log(`Admin ${values.email} created.`);
        return 0;
      }
      case "seed-demo": {
        if (
          (await countUsers(database.db)) > 0 &&
          (await findUserByEmail(database.db, "owner@greenway.example"))
        ) {
          console.error("The demo data is already there.");
          return 1;
        }
        const hasAdmin = (await countUsers(database.db)) > 0;
        const logins = await seedDemo(database.db, { createAdmin: !hasAdmin, secretsKey: config.secretsKey });
        console.log(formatDemoLogins(logins, config.publicUrl));
        return 0;
      }
      case "attach-user": {
        const { values } = parseArgs({
          args: rest,
          options: {
            email: { type: "string" },
            client: { type: "string" },
            staff: { type: "boolean", default: false },
          },
        });
        const outcome = await attachUser(database.db, {
          email: values.email,
          clientNo: values.client,
          staff: values.staff,
        });
        (outcome.ok ? console.log : console.error)(outcome.message);
        return outcome.ok ? 0 : 1;
      }
      case "doctor": {
        const { values } = parseArgs({
          args: rest,
          options: {
            client: { type: "string" },
            gateway: { type: "boolean" },
            audit: { type: "boolean" },
            date: { type: "string" },
          },
        });
        const clientNo = values.client === undefined ? undefined : Number(values.client);
        if (clientNo !== undefined && !Number.isInteger(clientNo)) {
          console.error(`--client takes a client number, got "${values.client}".`);
          return 1;
        }
        // Awaited here: the database closes in the finally below.
        if (values.gateway) return await gatewayDoctor(database.db, config, clientNo, values.date);
        if (values.audit) return await auditDoctor(database.db, clientNo);
        const report = await runDoctor(database.db, clientNo);
        const healthy = report.kind === "checked" && report.mismatches.length === 0;
        (healthy ? console.log : console.error)(formatDoctorReport(report));
        return healthy ? 0 : 1;
      }
      default:
        console.error(`Unknown command "${command}".\n${usage}`);
        return 1;
    }
  }
}

async function auditDoctor(db: Database, clientNo: number | undefined): Promise<number> {
  const outcome = await runAuditDoctor(db, clientNo);
  (outcome.ok ? console.log : console.error)(outcome.text);
  return outcome.ok ? 0 : 1;
}

async function gatewayDoctor(
  db: Database,
  config: Config,
  clientNo: number | undefined,
  day: string | undefined,
): Promise<number> {
  if (day !== undefined && !isCalendarDate(day)) {
    console.error(`--date takes a day as YYYY-MM-DD, got "${day}".`);
    return 1;
  }
  const report = await runGatewayDoctor(db, paymentGatewayOf(config), { clientNo, day });
  const healthy = gatewayDoctorHealthy(report);
  (healthy ? console.log : console.error)(formatGatewayDoctorReport(report));
  return healthy ? 0 : 1;
}

async function writeApiDocument(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { out: { type: "string" } } });
  const text = `${JSON.stringify(await describeApi(), null, 2)}\n`;
  if (values.out) {
    await writeFile(values.out, text);
    console.log(`OpenAPI document written to ${values.out}.`);
  } else {
    process.stdout.write(text);
  }
  return 0;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
