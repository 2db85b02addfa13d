import { eq } from "drizzle-orm";
import type { Executor } from "../../db/database.js";
import { clients, type customers } from "../../db/tables.js";
import { notFound } from "../../http/errors.js";
import { displayPhone, type BillClient, type BillCustomer } from "./bill-layout.pdf.js";

// Who a bill is from and to: the client's letterhead and messages, the customer's address lines.

function cityLine(city: string, state: string, zip: string, zip4 = ""): string {
  const fullZip = zip4 ? `${zip}-${zip4}` : zip;
  const place = [city, state].filter((part) => part !== "").join(", ");
  return [place, fullZip].filter((part) => part !== "").join(" ");
}

export async function loadBillClient(db: Executor, clientId: number): Promise<BillClient> {
  const [client] = await db.select().from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!client) throw notFound();
  return {
    name: client.clientName,
    addressLines: [
      client.address1,
      client.address2,
      client.address3,
      cityLine(client.city, client.state, client.zip, client.zip4),
    ].filter((line) => line.trim() !== ""),
    phone: displayPhone(client.busPhone),
    email: client.email,
    terms: client.termsMessage,
    dueDays: client.dueDays,
    billMessages: [client.billMessageLine1, client.billMessageLine2, client.billMessageLine3].filter(
      (line) => line.trim() !== "",
    ),
    invoiceMessage: client.biMessage,
  };
}

export function billCustomer(customer: typeof customers.$inferSelect): BillCustomer {
  const company =
    customer.companyName && customer.companyName !== customer.customerName ? [customer.companyName] : [];
  return {
    name: customer.customerName,
    customerNo: customer.customerNo,
    addressLines: [
      ...company,
      customer.address1,
      customer.address2,
      customer.address3,
      cityLine(customer.city, customer.state, customer.zip),
    ].filter((line) => line.trim() !== ""),
    message: customer.message,
  };
}
