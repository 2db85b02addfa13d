import { codes, transactions } from "../../db/tables.js";

/** What a printed bill line (BillLine) reads from an entry joined with its code. */
export const billLineColumns = {
  serviceDate: transactions.serviceDate,
  code: codes.code,
  codeType: codes.codeType,
  description: transactions.description,
  quantity: transactions.quantity,
  rate: transactions.rate,
  ledgerAmount: transactions.ledgerAmount,
  voided: transactions.voided,
};
