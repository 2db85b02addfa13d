import { eq } from "drizzle-orm";
import type { PaymentInfo } from "@cyclebill/domain";
import { beforeAll, describe, expect, it } from "vitest";
import { clients, statements } from "../../db/tables.js";
import { pdfText } from "../../test-support/pdf-text.js";
import {
  customerWithStatement,
  forgetRateLimits,
  makePayment,
  storedCard,
  usePaymentFixture,
} from "../../test-support/payment-fixture.js";
import { statementEmail } from "../delivery/statement-email.js";
import { loadStatementDocuments } from "../statements/load-statement-documents.js";

// Issue 28 points 3 and 5: an autopay customer's statement says what is charged to which method on
// which day and asks for nothing; every statement prints one due date from the client's terms.

const fixture = usePaymentFixture();

beforeAll(async () => {
  // Net 10: a statement of 01/31/2026 is due 02/10/2026, the day autopay charges it.
  await fixture.testApp.db
    .update(clients)
    .set({ termsMessage: "Net 10 days", dueDays: 10 })
    .where(eq(clients.id, fixture.tenants.a.clientId));
});

const staffA = () => fixture.testApp.client(fixture.tenants.a.staffToken);

async function statementPdfText(statementId: number): Promise<string> {
  const response = await fetch(`${fixture.testApp.baseUrl}/api/statements/${statementId}/pdf/`, {
    headers: { authorization: `Bearer ${fixture.tenants.a.staffToken}` },
  });
  expect(response.status).toBe(200);
  return (await pdfText(new Uint8Array(await response.arrayBuffer()))).replace(/\s+/g, " ");
}

async function emailText(statementId: number): Promise<string> {
  const [loaded] = await loadStatementDocuments(
    fixture.testApp.db,
    fixture.tenants.a.clientId,
    [statementId],
    {
      publicUrl: "http://billing.test",
    },
  );
  if (!loaded) throw new Error("statement not loaded");
  const mail = statementEmail({
    to: "pat@example.com",
    document: loaded.document,
    pdf: Buffer.from(""),
    payLink: loaded.document.payLink ?? "",
    messageId: "<test@billing.test>",
  });
  return `${mail.subject}\n${mail.text}\n${mail.html ?? ""}`;
}

describe("statements of autopay and other customers", () => {
  it("prints one due date from the client's terms on the PDF, email and pay page", async () => {
    await forgetRateLimits(fixture.testApp);
    const { token, statementId } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "50.00",
    );
    const info = (
      await fixture.testApp.client().post("/api/payments/get-payment-info/", { statementId: token })
    ).body as PaymentInfo;
    expect(info.statement).toMatchObject({
      due_date: "2026-02-10",
      due_label: "Due by 02/10/2026",
      autopay_notice: null,
    });
    expect(await statementPdfText(statementId)).toContain("Due Date 02/10/2026");
    const email = await emailText(statementId);
    expect(email).toContain("Amount due: $50.00, Due by 02/10/2026.");
    expect(email).toContain("Pay your statement");
  });

  it("tells an autopay customer what will be charged to which card on which day, and asks for nothing", async () => {
    await forgetRateLimits(fixture.testApp);
    const { customerId, token, statementId } = await customerWithStatement(
      fixture.testApp,
      fixture.tenants.a.clientId,
      "60.00",
    );
    const stored = await makePayment(
      fixture.testApp,
      storedCard({ customer_id: customerId, autoPay: true }),
      `autopay-${customerId}`,
      fixture.tenants.a.staffToken,
    );
    expect(stored.status).toBe(200);
    expect((await staffA().get(`/api/customers/${customerId}/`)).body).toMatchObject({ autopay_flag: true });
    // What a production run records when it plans the statement's autopay charge (start-card-run.ts):
    // the statement keeps what it announced.
    await fixture.testApp.db
      .update(statements)
      .set({ autopayMethod: "MC ending 4444", autopayChargeDate: "2026-02-10" })
      .where(eq(statements.id, statementId));
    const notice = "Autopay: $60.00 will be charged to your MC ending 4444 on 02/10/2026. Nothing to pay.";

    const info = (
      await fixture.testApp.client().post("/api/payments/get-payment-info/", { statementId: token })
    ).body as PaymentInfo;
    expect(info.accountbalance).toBe("60.00");
    expect(info.statement?.autopay_notice).toBe(notice);

    const pdf = await statementPdfText(statementId);
    expect(pdf).toContain(notice);
    expect(pdf).toContain("Autopay on 02/10/2026");
    expect(pdf).toContain("Paid by autopay: nothing to send.");
    expect(
      pdf.match(/Amount due|A M O U N T D U E|Pay online|Due on receipt|with your payment/gi),
    ).toBeNull();

    const email = await emailText(statementId);
    expect(email).toContain(notice);
    expect(email).not.toMatch(/Amount due|Pay your statement|Pay online/);
  });
});
