import { z } from "zod";

const amount = z.string().describe("decimal string, 2 places");

/** GET /api/summary-data/client/{id}: the home dashboard; counts are numbers, amounts decimal strings. */
export const clientSummarySchema = z.object({
  totalCustomers: z.number().int(),
  totalTransactions: z.number().int(),
  arBalanceAsOfDate: z.string(),
  arCurrentBalance: amount,
  arOverdue30: amount,
  arOverdue60: amount,
  arOverdue90: amount,
  mtdCharges: amount,
  mtdPayments: amount,
  mtdDebitAdj: amount,
  mtdCreditAdj: amount,
  mtdTotal: amount,
  newBalance: amount,
  obexTotalBalance: amount,
  obexDateOfLastPayment: z.string().nullable(),
});
export type ClientSummary = z.output<typeof clientSummarySchema>;
