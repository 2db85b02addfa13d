import { DEFAULT_GATEWAY_HASH_TYPE, readDailyReport, type DailyReportAnswer } from "@cyclebill/domain";
import type { BluepayCredentials, BluepayMode } from "../payments/bluepay-client.js";
import { QUERY_SEAL_FIELDS, sealFields } from "../payments/gateway-seal.js";

// BluePay's daily report (bpdailyreport2), beside bp20post at .../interfaces/bpdailyreport2. Sealed
// as its document says (the secret key, ACCOUNT_ID, REPORT_START_DATE, REPORT_END_DATE) with the
// TPS_HASH_TYPE our other calls send, which decides over the account's setting.

export type DailyReportQuery = {
  mode: BluepayMode;
  /** The report covers from midnight of `from` to just before midnight of `to` (YYYY-MM-DD). */
  from: string;
  to: string;
  /** Query by settlement date (only settled transactions) instead of issue date. */
  bySettlement: boolean;
};

/** The report's address next to the configured bp20post address. */
export function dailyReportUrlOf(bp20postUrl: string): string {
  return new URL("bpdailyreport2", bp20postUrl).toString();
}

export type DailyReportResult = DailyReportAnswer | { kind: "no-answer"; detail: string };

export function dailyReportFields(
  credentials: BluepayCredentials,
  query: DailyReportQuery,
): Record<string, string> {
  const fields: Record<string, string> = {
    ACCOUNT_ID: credentials.accountId,
    MODE: query.mode,
    REPORT_START_DATE: query.from,
    REPORT_END_DATE: query.to,
    RESPONSEVERSION: "2",
    EXCLUDE_ERRORS: "1",
    ...(query.bySettlement ? { QUERY_BY_SETTLEMENT: "1" } : {}),
  };
  return sealFields(
    credentials.secretKey,
    credentials.hashType ?? DEFAULT_GATEWAY_HASH_TYPE,
    fields,
    QUERY_SEAL_FIELDS,
  );
}

/** Asks for one report; a call that ends without an HTTP answer is "no-answer" (ask again later). */
export async function fetchDailyReport(
  bp20postUrl: string,
  credentials: BluepayCredentials,
  query: DailyReportQuery,
  options: { timeoutMs: number },
): Promise<DailyReportResult> {
  try {
    const response = await fetch(dailyReportUrlOf(bp20postUrl), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(dailyReportFields(credentials, query)).toString(),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    return readDailyReport(response.status, await response.text());
  } catch (error) {
    return { kind: "no-answer", detail: error instanceof Error ? error.message : String(error) };
  }
}
