import { and, eq, sql } from "drizzle-orm";
import {
  CODE_TYPES,
  LATE_FEE_CODE,
  ageBalance,
  isLateFee,
  ledgerAmount,
  statementBoxes,
  type CodeType,
  type Debit,
} from "@cyclebill/domain";
import { z } from "zod";
import type { Executor } from "../../db/database.js";
import { queryRows } from "../../db/query-rows.js";
import { dbBool, dbDate, dbDecimal, dbInt, dbText } from "../../db/row-schemas.js";
import { customers } from "../../db/tables.js";
import { notFound } from "../../http/errors.js";
import type { PdfFile } from "../codes/code-report.pdf.js";
import { type BillLine } from "../invoices/bill-layout.pdf.js";
import { toBillLine } from "../invoices/bill-line-columns.js";
import { billCustomer, loadBillClient } from "../invoices/bill-parties.js";
import { renderStatementsPdf } from "../statements/statement-page.pdf.js";
import { billedByStatement } from "../ledger/statement-runs.js";
import { planOneCustomer, type PreviewOptions } from "./preview-production.js";

const ledgerRowSchema = z.object({
  service_date: dbDate,
  code: dbInt,
  code_type: z.enum(CODE_TYPES),
  description: dbText,
  quantity: dbDecimal,
  rate: dbDecimal,
  ledger_amount: dbDecimal,
  voided: dbBool,
  on_statement: dbBool,
  offset_kind: z.enum(["void", "reversal"]).nullable(),
  offset_date: dbDate.nullable(),
  offset_code: dbInt.nullable(),
  offset_code_type: z.enum(CODE_TYPES).nullable(),
});

const periodStartRowSchema = z.object({ period_start: dbDate.nullable() });

/**
 * GET dailyproduction/client/{id}/customers/{id}/statement.pdf: the statement a run on runDate would
 * produce for the customer, drawn by the statement renderer from the preview's plan — the entries
 * its statement would bill plus the recurring charges and late fee the run would post, the balance
 * and month-to-date figures they would leave and the ageing as of the run date. Writes nothing.
 */
export async function renderPreviewStatementPdf(
  db: Executor,
  clientId: number,
  customerId: number,
  runDate: string,
  options: PreviewOptions = {},
): Promise<PdfFile> {
  const { plan } = await planOneCustomer(db, clientId, customerId, runDate, options);
  const [customer] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.clientId, clientId), eq(customers.id, customerId)));
  if (!customer) throw notFound();
  // Every entry of the ledger (for the ageing); those the statement would bill are marked by the
  // run's own condition (billedByStatement).
  const ledger = await queryRows(
    db,
    sql`select t.service_date::text as service_date, k.code, k.code_type, t.description, t.quantity::text as quantity,
               t.rate::text as rate, t.ledger_amount::text as ledger_amount, t.voided,
               (${billedByStatement(sql`${runDate}::date`)}) as on_statement,
               case when t.voids_transaction_id is not null then 'void'
                    when t.reverses_transaction_id is not null then 'reversal' end as offset_kind,
               o.service_date::text as offset_date, ok.code as offset_code, ok.code_type as offset_code_type
        from transactions t join codes k on k.client_id = t.client_id and k.id = t.code_id
        -- What a void or reversal takes back: its line names it, as the issued statement's does.
        left join transactions o
          on o.client_id = t.client_id and o.id = coalesce(t.voids_transaction_id, t.reverses_transaction_id)
        left join codes ok on ok.client_id = o.client_id and ok.id = o.code_id
        where t.client_id = ${clientId} and t.customer_id = ${customerId}
        order by t.service_date, t.id`,
    ledgerRowSchema,
  );
  const [previous] = await queryRows(
    db,
    sql`select (max(statement_date) + 1)::text as period_start from statements
        where client_id = ${clientId} and customer_id = ${customerId}`,
    periodStartRowSchema,
  );

  const planned: (BillLine & { codeType: CodeType; amount: string })[] = plan.recurring.map((posting) => ({
    serviceDate: posting.serviceDate,
    code: posting.charge.code,
    codeType: posting.charge.codeType as CodeType,
    description: posting.description,
    quantity: posting.quantity,
    rate: posting.charge.rate,
    ledgerAmount: ledgerAmount(posting.charge.codeType as CodeType, posting.amount),
    amount: posting.amount,
    voided: false,
  }));
  const lateFee = plan.lateFee.lines.length > 0 ? plan.lateFee.total : "0.00";
  if (plan.lateFee.lines.length > 0)
    planned.push({
      serviceDate: runDate,
      code: LATE_FEE_CODE,
      codeType: "charge",
      description: plan.lateFee.description,
      quantity: "1",
      rate: lateFee,
      ledgerAmount: ledgerAmount("charge", lateFee),
      amount: lateFee,
      voided: false,
    });

  // The boxes as the run would write them: the one rule, from the entries the statement would carry.
  const boxes = statementBoxes(customer.previousBalance, [
    ...ledger
      .filter((row) => row.on_statement)
      .map((row) => ({
        codeType: row.code_type,
        ledgerAmount: row.ledger_amount,
        lateFee: isLateFee(row),
      })),
    ...planned.map((line) => ({
      codeType: line.codeType,
      ledgerAmount: line.ledgerAmount,
      lateFee: isLateFee(line),
    })),
  ]);
  const ledgerDebits: Debit[] = [
    ...ledger.map((row) => ({ date: row.service_date, amount: row.ledger_amount })),
    ...planned.map((line) => ({ date: line.serviceDate, amount: line.ledgerAmount })),
  ];
  const ageing = ageBalance(plan.newBalance, ledgerDebits, runDate);
  const lines: BillLine[] = [
    ...ledger
      .filter((row) => row.on_statement)
      .map((row) =>
        toBillLine({
          serviceDate: row.service_date,
          code: row.code,
          codeType: row.code_type,
          description: row.description,
          quantity: row.quantity,
          rate: row.rate,
          ledgerAmount: row.ledger_amount,
          voided: row.voided,
          offsetKind: row.offset_kind,
          offsetDate: row.offset_date,
          offsetCode: row.offset_code,
          offsetCodeType: row.offset_code_type,
        }),
      ),
    ...planned.map(({ amount: _amount, ...line }) => line),
  ].sort((a, b) => (a.serviceDate < b.serviceDate ? -1 : a.serviceDate > b.serviceDate ? 1 : 0));

  const fileName = `Statement preview ${customer.customerNo} ${runDate}.pdf`;
  const content = await renderStatementsPdf(fileName.replace(/\.pdf$/, ""), [
    {
      client: await loadBillClient(db, clientId),
      customer: billCustomer(customer),
      preview: true,
      periodStart: previous?.period_start ?? null,
      lines,
      statement: {
        statementNum: 0,
        statementDate: runDate,
        ...boxes,
        currentBalance: ageing.current,
        overdue30Days: ageing.days30,
        overdue60Days: ageing.days60,
        overdue90Days: ageing.days90,
        overdueOver90Days: ageing.over90,
      },
    },
  ]);
  return { fileName, content };
}
