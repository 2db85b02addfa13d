import { eq, sql } from "drizzle-orm";
import {
  DEFAULT_GATEWAY_HASH_TYPE,
  gatewayRecordMeaning,
  isValidDecimalString,
  parseFormEncoded,
  type GatewayRecordFacts,
  addDays,
} from "@cyclebill/domain";
import { z } from "zod";
import { businessToday } from "../../clock.js";
import type { Database } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbInt } from "../../db/row-schemas.js";
import { clients } from "../../db/tables.js";
import { loadBluepayCredentials } from "../payments/bluepay-credentials.js";
import { queryUrlOf, type BluepayCredentials } from "../payments/bluepay-client.js";
import { QUERY_SEAL_FIELDS, sealFields } from "../payments/gateway-seal.js";
import type { PaymentGateway } from "../payments/payment-gateway.js";
import { applyGatewayEvent, type AppliedGatewayEvent } from "./apply-gateway-event.js";

// BluePay's Trans Notify: a form POST to the address the merchant sets in BluePay's console, one
// per transaction (and per settlement, return, chargeback). Anyone can post there, so nothing in
// the post is trusted, not even its BP_STAMP (an MD5 over a few fields): its trans_id is only a
// question, asked of the gateway with the client's own credentials (stq, by id), and the record
// the gateway answers is what is applied, never the post.

/** How far back a confirming lookup searches (a return can name a sale up to 60+ days old). */
const LOOKUP_DAYS = 200;

/** A record as stq answers it by id, with what decides its meaning. */
export type GatewayRecord = GatewayRecordFacts & {
  transId: string;
  amount: string;
  issueDate: string;
  /** A NOC's corrected data, where the gateway gives it apart from its message. */
  correctedData: string;
};

/** The day `days` before `day` (the one calendar's addDays). */
const daysBefore = (day: string, days: number): string => addDays(day, -days);

/** Asks the gateway (stq) for the record with this TRANS_ID; null when it does not answer with exactly that one. */
export async function lookupGatewayRecord(
  gateway: PaymentGateway,
  credentials: BluepayCredentials,
  transId: string,
): Promise<GatewayRecord | null> {
  if (!gateway.url) return null;
  const today = businessToday();
  const fields = sealFields(
    credentials.secretKey,
    credentials.hashType ?? DEFAULT_GATEWAY_HASH_TYPE,
    {
      ACCOUNT_ID: credentials.accountId,
      MODE: gateway.mode,
      REPORT_START_DATE: daysBefore(today, LOOKUP_DAYS),
      REPORT_END_DATE: daysBefore(today, -1),
      id: transId,
    },
    QUERY_SEAL_FIELDS,
  );
  let body: string;
  try {
    const response = await fetch(queryUrlOf(gateway.url), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      signal: AbortSignal.timeout(gateway.timeoutMs),
    });
    if (response.status !== 200) return null;
    body = await response.text();
  } catch {
    return null;
  }
  const found = parseFormEncoded(body);
  const field = (name: string) => (found.get(name) ?? "").trim();
  if (field("id") !== transId) return null;
  return {
    transId,
    origin: field("origin"),
    paymentType: field("payment_type"),
    transType: field("trans_type"),
    status: field("status"),
    authCode: field("auth_code"),
    message: field("message"),
    settleDate: field("settle_date"),
    masterId: field("master_id"),
    amount: field("amount"),
    issueDate: field("issue_date"),
    correctedData: field("corrected_data"),
  };
}

/** The client of a sale with the record's TRANS_ID. */
const saleOwnerRowSchema = z.object({ client_id: dbInt });

/**
 * The client whose sale the confirmed record is about: clients sharing one gateway account (the
 * demo's do) share its one Trans Notify address, and the record, found with that account's
 * credentials, belongs to whichever of them made the sale. The posted-to client when none did.
 */
async function ownerOf(db: Database, clientId: number, originalTransId: string): Promise<number> {
  const [owner] = await queryRows(
    db,
    sql`select a.client_id from clients posted
        join clients c on c.bluepay_account_id = posted.bluepay_account_id
        join payment_attempts a on a.client_id = c.id and a.gateway_trans_id = ${originalTransId}
                                and a.kind = 'sale'
        where posted.id = ${clientId} and posted.bluepay_account_id <> ''
        order by (a.client_id = ${clientId}) desc, a.client_id limit 1`,
    saleOwnerRowSchema,
  );
  return owner ? owner.client_id : clientId;
}

export type NotifyOutcome =
  { outcome: "ignored"; why: string } | { outcome: "confirmed"; applied: AppliedGatewayEvent | null };

/**
 * One Trans Notify post for the client numbered clientNo: looked up at the gateway and, when the
 * gateway's own record means something for our books, applied through applyGatewayEvent.
 */
export async function confirmTransNotify(
  db: Database,
  gateway: PaymentGateway,
  clientNo: number,
  post: Readonly<Record<string, string>>,
): Promise<NotifyOutcome> {
  const transId = (post.trans_id ?? "").trim();
  if (!/^\d{1,20}$/.test(transId)) return { outcome: "ignored", why: "no transaction id" };
  const [client] = await db.select({ id: clients.id }).from(clients).where(eq(clients.clientNo, clientNo));
  if (!client) return { outcome: "ignored", why: "unknown client" };
  const credentials = await loadBluepayCredentials(db, gateway.secretsKey, client.id);
  if (!credentials) return { outcome: "ignored", why: "no gateway key" };
  const record = await lookupGatewayRecord(gateway, credentials, transId);
  if (!record) return { outcome: "ignored", why: "not confirmed by the gateway" };
  const kind = gatewayRecordMeaning(record);
  if (kind === null) return { outcome: "confirmed", applied: null };
  const settled = kind === "settled";
  const originalTransId = settled ? record.transId : record.masterId;
  const applied = await applyGatewayEvent(
    db,
    {
      clientId: await ownerOf(db, client.id, originalTransId),
      kind,
      gatewayTransId: record.transId,
      originalTransId,
      code: settled ? "" : record.authCode,
      reason: record.message,
      amount: isValidDecimalString(record.amount, { maxPlaces: 2 }) ? record.amount : "0",
      date: ((settled ? record.settleDate : record.issueDate) || businessToday()).slice(0, 10),
      source: "notify",
      correctedData: kind === "noc" ? record.correctedData || record.message : "",
    },
    { gateway },
  );
  return { outcome: "confirmed", applied };
}
