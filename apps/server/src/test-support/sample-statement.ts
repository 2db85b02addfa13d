import type { StatementDocument } from "../modules/statements/statement-page.pdf.js";

/** A typical one-page statement: a letterhead, eight entries, messages and a pay link. */
export function sampleStatement(statementNum = 1042): StatementDocument {
  const lines = Array.from({ length: 8 }, (_, index) => ({
    serviceDate: `2026-10-${String(index * 3 + 2).padStart(2, "0")}`,
    code: 100 + index,
    description: index % 3 === 2 ? "Payment - thank you" : `Monthly service, unit ${index + 1}`,
    quantity: "1.00",
    rate: "42.50000",
    ledgerAmount: index % 3 === 2 ? "-85.00" : "42.50",
    codeType: index % 3 === 2 ? "payment" : "charge",
    voided: false,
  }));
  return {
    client: {
      name: "Lakeside Property Services",
      addressLines: ["1200 Harbor Road, Suite 4", "Austin, TX 78701"],
      phone: "5125550100",
      email: "billing@lakeside.example",
      terms: "Payment is due within 30 days of the statement date.",
      dueDays: 30,
      billMessages: ["Thank you for your business."],
      invoiceMessage: "",
    },
    customer: {
      name: "Dana Whitfield",
      customerNo: 4711,
      addressLines: ["88 Elm Street", "Austin, TX 78702"],
      message: "",
    },
    statement: {
      statementNum,
      statementDate: "2026-10-31",
      previousBalance: "120.00",
      charges: "212.50",
      payments: "170.00",
      creditAdjustments: "0.00",
      debitAdjustments: "0.00",
      lateFees: "0.00",
      newBalance: "162.50",
      currentBalance: "162.50",
      overdue30Days: "0.00",
      overdue60Days: "0.00",
      overdue90Days: "0.00",
      overdueOver90Days: "0.00",
    },
    periodStart: "2026-10-01",
    lines,
    payLink: "https://pay.example/s/abc123",
  };
}
