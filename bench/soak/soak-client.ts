import type { Sandbox } from "@cyclebill/gateway-sandbox";
import type { Database } from "../../apps/server/src/db/database.js";
import { clients, codes, customers, recurringCharges } from "../../apps/server/src/db/tables.js";
import { issueSessionToken } from "../../apps/server/src/modules/auth/start-session.js";
import { sealSecret } from "../../apps/server/src/modules/secrets/secret-box.js";
import { createUser } from "../../apps/server/src/modules/users/create-user.js";
import type { SequencePlan } from "./soak-plan.js";
import { SOAK_SECRET } from "./soak-processes.js";

// A fresh client per sequence (its own gateway account at the sandbox, so the sandbox's book of
// that account is this sequence's alone): codes, customers, some with a recurring charge, an owner.

export type SoakClient = {
  clientId: number;
  accountId: string;
  ownerToken: string;
  cycle: number;
  runDate: string;
  codes: { charge: number; payment: number; adjust: number };
  customerIds: number[];
};

let made = 0;

export async function createSoakClient(
  db: Database,
  sandbox: Sandbox,
  plan: SequencePlan,
  runTag: number,
): Promise<SoakClient> {
  made += 1;
  // 12 digits, unique in this run (the sandbox keeps every account it was given).
  const accountId = `9${String(runTag % 1_000_000).padStart(6, "0")}${String(made).padStart(5, "0")}`;
  const secretKey = `SOAKSECRET${accountId}ABCDEFGHIJ`;
  // Set to HMAC_SHA512 only, as current BluePay accounts are: a seal of another type is refused.
  sandbox.addAccount({ accountId, secretKey, hashType: "HMAC_SHA512" });
  const cycle = 1 + (plan.index % 28);
  const day = String(cycle).padStart(2, "0");
  const [client] = await db
    .insert(clients)
    .values({
      clientNo: 700_000_000 + (runTag % 100_000) * 1_000 + (made % 1_000),
      clientName: `Soak ${plan.seed}/${plan.index}`,
      normalCycle: cycle,
      dateLastBilling: `2026-09-${day}`,
      bluepayAccountId: accountId,
      bluepaySecretKeyEncrypted: sealSecret(SOAK_SECRET, secretKey),
    })
    .returning({ id: clients.id });
  if (!client) throw new Error("client not created");
  const codeRows = await db
    .insert(codes)
    .values([
      { clientId: client.id, code: 100, codeName: "Service", description: "Service", codeType: "charge" },
      { clientId: client.id, code: 200, codeName: "Payment", description: "Payment", codeType: "payment" },
      { clientId: client.id, code: 300, codeName: "Adjust", description: "Adjustment", codeType: "adjust" },
    ])
    .returning({ id: codes.id, code: codes.code });
  const codeId = (code: number) => codeRows.find((row) => row.code === code)?.id ?? 0;
  const customerRows = await db
    .insert(customers)
    .values(
      Array.from({ length: plan.customers }, (_, n) => ({
        clientId: client.id,
        customerNo: n + 1,
        customerName: `Soak customer ${n + 1}`,
        firstName: "Sam",
        lastName: `Soak${n + 1}`,
      })),
    )
    .returning({ id: customers.id });
  const customerIds = customerRows.map((row) => row.id).sort((a, b) => a - b);
  const recurring = plan.recurring.map((n) => customerIds[n]).filter((id) => id !== undefined);
  if (recurring.length > 0)
    await db.insert(recurringCharges).values(
      recurring.map((customerId) => ({
        clientId: client.id,
        customerId,
        codeId: codeId(100),
        description: "Monthly service",
        rate: "20.00000",
        quantity: "1",
        amount: "20.00",
        startMonth: 1,
        endMonth: 12,
      })),
    );
  const owner = await createUser(db, {
    email: `soak-owner-${client.id}@soak.example`,
    password: null,
    clientId: client.id,
  });
  return {
    clientId: client.id,
    accountId,
    ownerToken: await issueSessionToken(db, SOAK_SECRET, owner.id, {
      address: "127.0.0.1",
      userAgent: "soak",
    }),
    cycle,
    runDate: `2026-10-${day}`,
    codes: { charge: codeId(100), payment: codeId(200), adjust: codeId(300) },
    customerIds,
  };
}
