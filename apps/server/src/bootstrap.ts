import type { Logger } from "pino";
import type { Config } from "./config.js";
import type { Database } from "./db/database.js";
import { seedDemo, type DemoLogin } from "./modules/demo/seed-demo.js";
import { seedDemoPayments } from "./modules/demo/seed-demo-payments.js";
import { paymentGatewayOf } from "./modules/payments/payment-gateway.js";
import { countUsers, createUser, findUserByEmail } from "./modules/users/create-user.js";

/**
 * First-start data: the configured admin (once), and demo data when the database is empty.
 * Returns the demo logins so the caller can print them once.
 */
export async function bootstrapData(
  db: Database,
  config: Pick<Config, "adminEmail" | "adminPassword" | "seedDemo"> &
    Partial<Pick<Config, "bluepay" | "secretsKey" | "installationId">>,
  log: Pick<Logger, "info" | "warn">,
): Promise<DemoLogin[]> {
  const empty = (await countUsers(db)) === 0;
  const configuredAdmin = config.adminEmail && config.adminPassword;
  if (configuredAdmin && config.adminEmail && config.adminPassword) {
    if (!(await findUserByEmail(db, config.adminEmail))) {
      await createUser(db, { email: config.adminEmail, password: config.adminPassword, isAdmin: true });
      log.info({ email: config.adminEmail }, "created the admin named by BILLING_ADMIN_EMAIL");
    }
  }
  if (!empty) return [];
  if (!config.seedDemo) {
    if (!configuredAdmin) {
      log.warn(
        "no users exist; create an admin with: npm run cli -- create-admin --email <email> --password <password>",
      );
    }
    return [];
  }
  const logins = await seedDemo(db, { createAdmin: !configuredAdmin, secretsKey: config.secretsKey });
  log.info({ clients: 2 }, "seeded demo data");
  if (config.bluepay && config.secretsKey && config.installationId) {
    // Cards on file and a few payments through the gateway (npm start's sandbox); the demo works without them.
    try {
      const payments = await seedDemoPayments(
        db,
        paymentGatewayOf({
          bluepay: config.bluepay,
          secretsKey: config.secretsKey,
          installationId: config.installationId,
        }),
      );
      log.info(payments, "seeded demo payments");
    } catch (error) {
      log.warn(
        { error: error instanceof Error ? error.message : String(error) },
        "demo payments were not made",
      );
    }
  }
  return logins;
}

export function formatDemoLogins(logins: readonly DemoLogin[], publicUrl: string): string {
  const width = Math.max(...logins.map((login) => login.email.length));
  const lines = logins.map(
    (login) =>
      `  ${login.email.padEnd(width)}  ${login.password}  ${login.role}${login.client ? ` (${login.client})` : ""}`,
  );
  return ["", `Demo data is ready at ${publicUrl}. These logins are shown only once:`, ...lines, ""].join(
    "\n",
  );
}
