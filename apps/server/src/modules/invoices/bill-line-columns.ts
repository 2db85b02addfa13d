import { and, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { billLineDescription, type CodeType } from "@cyclebill/domain";
import { codes, transactions } from "../../db/tables.js";
import type { BillLine } from "./bill-layout.pdf.js";

/** The entry a void or reversal takes back, and its code: its line names them. */
const offsetTarget = alias(transactions, "offset_target");
const offsetTargetCode = alias(codes, "offset_target_code");

/** What a printed bill line (BillLine) reads from an entry joined with its code (and offsetJoins). */
export const billLineColumns = {
  serviceDate: transactions.serviceDate,
  code: codes.code,
  codeType: codes.codeType,
  description: transactions.description,
  quantity: transactions.quantity,
  rate: transactions.rate,
  ledgerAmount: transactions.ledgerAmount,
  voided: transactions.voided,
  offsetKind: sql<
    "void" | "reversal" | null
  >`(case when ${transactions.voidsTransactionId} is not null then 'void'
    when ${transactions.reversesTransactionId} is not null then 'reversal' end)`,
  offsetDate: offsetTarget.serviceDate,
  offsetCode: offsetTargetCode.code,
  offsetCodeType: offsetTargetCode.codeType,
};

/** The left joins billLineColumns' offset columns read (the entry taken back, and its code). */
export const offsetJoins: { target: [typeof offsetTarget, SQL]; code: [typeof offsetTargetCode, SQL] } = {
  target: [
    offsetTarget,
    and(
      eq(offsetTarget.clientId, transactions.clientId),
      eq(
        offsetTarget.id,
        sql`coalesce(${transactions.voidsTransactionId}, ${transactions.reversesTransactionId})`,
      ),
    ) as SQL,
  ],
  code: [
    offsetTargetCode,
    and(
      eq(offsetTargetCode.clientId, offsetTarget.clientId),
      eq(offsetTargetCode.id, offsetTarget.codeId),
    ) as SQL,
  ],
};

type BillLineRow = Omit<BillLine, "codeType"> & {
  codeType: string;
  offsetKind: "void" | "reversal" | null;
  offsetDate: string | null;
  offsetCode: number | null;
  offsetCodeType: CodeType | null;
};

/** The printed line: a void or reversal named by what it takes back ("Reversal of payment of 03/03/2024"). */
export function toBillLine({
  offsetKind,
  offsetDate,
  offsetCode,
  offsetCodeType,
  ...line
}: BillLineRow): BillLine {
  const offsetOf =
    offsetKind && offsetDate !== null && offsetCode !== null && offsetCodeType !== null
      ? { kind: offsetKind, serviceDate: offsetDate, code: offsetCode, codeType: offsetCodeType }
      : null;
  return { ...line, description: billLineDescription(line.description, offsetOf) };
}
