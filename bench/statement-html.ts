// The same statement as HTML, laid out as our PDF is (letterhead, facts, address, account summary,
// ageing, activity, remittance stub), for headless Chromium's printToPDF: what peers that print
// HTML (Invoice Ninja, Lago, Bigcapital) do for each document.
import { formatUsd } from "@cyclebill/domain";
import type { StatementDocument } from "../apps/server/src/modules/statements/statement-page.pdf.js";

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function statementHtml(data: StatementDocument): string {
  const { client, customer, statement } = data;
  const box = (label: string, value: string) =>
    `<div class="box"><div class="label">${label}</div><div class="value">${formatUsd(value)}</div></div>`;
  const rows = data.lines
    .map(
      (line) =>
        `<tr><td>${line.serviceDate}</td><td>${line.code}</td><td>${escape(line.description)}</td>` +
        `<td class="num">${line.quantity}</td><td class="num">${line.rate}</td><td class="num">${formatUsd(line.ledgerAmount)}</td></tr>`,
    )
    .join("");
  return `<!doctype html><html><head><meta charset="utf-8"><style>
@page { size: letter; margin: 45px 50px 30px; }
body { font-family: Helvetica, Arial, sans-serif; color: #1d2733; font-size: 9pt; margin: 0; }
.head { display: flex; justify-content: space-between; }
h1 { font-size: 24pt; color: #1c3d5a; margin: 0; } .client { font-size: 17pt; font-weight: bold; }
.muted { color: #5b6673; } .facts td { padding: 1px 8px; }
.address { margin: 28px 0 18px; font-size: 10pt; } .due { background: #eef2f6; padding: 8px; font-size: 18pt; font-weight: bold; }
h2 { font-size: 8pt; letter-spacing: 1px; color: #5b6673; border-bottom: 1px solid #c9d2dc; margin: 16px 0 4px; }
.boxes { display: flex; gap: 4px; } .box { flex: 1; border: 1px solid #c9d2dc; padding: 4px; }
.label { font-size: 7pt; font-weight: bold; color: #5b6673; } .value { font-size: 11pt; font-weight: bold; }
table.lines { width: 100%; border-collapse: collapse; font-size: 8.5pt; } table.lines th { background: #1c3d5a; color: #fff; text-align: left; padding: 3px; }
table.lines td { padding: 3px; border-bottom: 1px solid #eef2f6; } .num { text-align: right; }
.stub { position: fixed; bottom: 40px; left: 0; right: 0; border-top: 1px dashed #5b6673; padding-top: 8px; }
footer { position: fixed; bottom: 0; font-size: 7pt; color: #5b6673; }
</style></head><body>
<div class="head"><div><div class="client">${escape(client.name)}</div>
<div class="muted">${client.addressLines.map(escape).join("<br>")}<br>${escape(client.phone)} · ${escape(client.email)}</div></div>
<div><h1>Statement</h1><table class="facts"><tr><td>Statement No.</td><td>${statement.statementNum}</td></tr>
<tr><td>Statement Date</td><td>${statement.statementDate}</td></tr><tr><td>Account No.</td><td>${customer.customerNo}</td></tr></table></div></div>
<div class="address">${escape(customer.name)}<br>${customer.addressLines.map(escape).join("<br>")}</div>
<div class="due">Amount due ${formatUsd(statement.newBalance)}</div>
<h2>ACCOUNT SUMMARY</h2><div class="boxes">${box("Previous balance", statement.previousBalance)}${box("Charges", statement.charges)}${box("Payments", statement.payments)}${box("Credits", statement.creditAdjustments)}${box("Debits", statement.debitAdjustments)}${box("New balance", statement.newBalance)}</div>
<h2>ACCOUNT AGEING</h2><div class="boxes">${box("Current", statement.currentBalance)}${box("30 days", statement.overdue30Days)}${box("60 days", statement.overdue60Days)}${box("90 days", statement.overdue90Days)}${box("Over 90 days", statement.overdueOver90Days)}</div>
<h2>ACCOUNT ACTIVITY</h2><table class="lines"><tr><th>Date</th><th>Code</th><th>Description</th><th class="num">Qty</th><th class="num">Rate</th><th class="num">Amount</th></tr>${rows}</table>
<p>${client.billMessages.map(escape).join("<br>")}</p><p class="muted">${escape(client.terms)}</p>
<div class="stub">Please detach and return this portion with your payment. Or pay online: ${escape(data.payLink ?? "")}
<p><b>MAKE PAYMENT TO</b><br>${escape(client.name)}<br>${client.addressLines.map(escape).join("<br>")}</p>
<p>From: ${escape(customer.name)} · Account ${customer.customerNo} · Amount due ${formatUsd(statement.newBalance)}</p></div>
<footer>${escape(client.name)} · Statement ${statement.statementNum} · Account ${customer.customerNo} · Page 1 of 1</footer>
</body></html>`;
}
