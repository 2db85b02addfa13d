import { describe, expect, it } from "vitest";
import {
  gatewayStatusOf,
  parseFormEncoded,
  readGatewayAnswer,
  readGatewayQueryAnswer,
} from "./gateway-answer.js";

// Answers in the shape BluePay's bp20post writes them (field order varies; MESSAGE is %-encoded).
const APPROVED_SALE =
  "AUTH_CODE=GYRUY&PAYMENT_ACCOUNT_MASK=xxxxxxxxxxxx4242&CARD_TYPE=VISA&TRANS_TYPE=SALE&REBID=&STATUS=1&AVS=_&TRANS_ID=100134203767&CVV2=_&MESSAGE=Approved%20Sale";
const DECLINED = "TRANS_ID=100000000150&STATUS=0&AVS=0&CVV2=7&MESSAGE=Declined&REBID=";

describe("form-encoded answers", () => {
  it("decodes %XX and + as a space, keeps the first of a repeated name and tolerates bad escapes", () => {
    const fields = parseFormEncoded("A=x%20y&B=a+b&A=second&C=100%&D&constructor=1&=lost\n");
    expect(fields.get("A")).toBe("x y");
    expect(fields.get("B")).toBe("a b");
    expect(fields.get("C")).toBe("100%");
    expect(fields.get("D")).toBe("");
    expect(fields.get("constructor")).toBe("1");
    expect(fields.has("")).toBe(false);
  });
});

describe("bp20post answers", () => {
  it("reads an approval", () => {
    expect(readGatewayAnswer(APPROVED_SALE)).toEqual({
      status: "approved",
      rawStatus: "1",
      transId: "100134203767",
      message: "Approved Sale",
      avs: "_",
      cvv2: "_",
      authCode: "GYRUY",
      mask: "xxxxxxxxxxxx4242",
      cardType: "VISA",
      transType: "SALE",
      storedId: "",
    });
    expect(readGatewayAnswer(`${APPROVED_SALE}&STORED_ID=TESTID526957756`)?.storedId).toBe("TESTID526957756");
  });

  it("reads a decline, leaving absent fields empty", () => {
    expect(readGatewayAnswer(DECLINED)).toMatchObject({
      status: "declined",
      transId: "100000000150",
      message: "Declined",
      authCode: "",
      mask: "",
    });
  });

  it("takes E and any other STATUS as an error", () => {
    expect(readGatewayAnswer("STATUS=E&MESSAGE=Invalid%20ACCOUNT_ID")?.status).toBe("error");
    expect(gatewayStatusOf("X", "Approved")).toBe("error");
    expect(gatewayStatusOf("", "")).toBe("error");
  });

  it("tells duplicate scrubbing (STATUS=1, MESSAGE=DUPLICATE) from a new approval", () => {
    const answer = readGatewayAnswer("TRANS_ID=100134203767&STATUS=1&MESSAGE=DUPLICATE&AUTH_CODE=GYRUY");
    expect(answer).toMatchObject({ status: "duplicate", transId: "100134203767" });
    expect(gatewayStatusOf("1", "duplicate")).toBe("duplicate");
  });

  it("is no answer at all without a STATUS (a proxy's error page, a cut-off body)", () => {
    expect(readGatewayAnswer("<html>502 Bad Gateway</html>")).toBeNull();
    expect(readGatewayAnswer("TRANS_ID=1&MESSAGE=Approved")).toBeNull();
    expect(readGatewayAnswer("")).toBeNull();
  });
});

describe("single-transaction query (stq) answers", () => {
  it("reads the transaction found from its lower-case fields", () => {
    const answer = readGatewayQueryAnswer(
      200,
      "id=100000000007&status=1&trans_type=SALE&payment_type=CREDIT&amount=3.00&order_id=pay-1&message=Approved%20Sale&payment_account=xxxxxxxxxxxx1111&card_type=VISA",
    );
    expect(answer).toEqual({
      kind: "found",
      transaction: expect.objectContaining({
        transId: "100000000007",
        status: "approved",
        amount: "3.00",
        orderId: "pay-1",
        mask: "xxxxxxxxxxxx1111",
      }),
    });
  });

  it("tells a refused query from one that matched nothing", () => {
    expect(readGatewayQueryAnswer(400, "STATUS=E&MESSAGE=Invalid%20TAMPER_PROOF_SEAL")).toEqual({
      kind: "unclear",
      detail: "HTTP 400: Invalid TAMPER_PROOF_SEAL",
    });
    expect(readGatewayQueryAnswer(200, "MESSAGE=No%20transactions%20found")).toEqual({ kind: "not-found" });
  });

  it("settles nothing on anything but a record or the explicit empty result", () => {
    const unclear = { kind: "unclear", detail: expect.any(String) };
    // An HTML error page, a proxy's error, a 5xx with a well-formed body, an unknown shape, empty.
    expect(readGatewayQueryAnswer(200, "<html><body>Service Unavailable</body></html>")).toEqual(unclear);
    expect(readGatewayQueryAnswer(502, "Bad Gateway")).toEqual(unclear);
    expect(readGatewayQueryAnswer(503, "MESSAGE=No%20transactions%20found")).toEqual(unclear);
    expect(readGatewayQueryAnswer(200, "result=none")).toEqual(unclear);
    expect(readGatewayQueryAnswer(200, "")).toEqual(unclear);
    expect(readGatewayQueryAnswer(200, "STATUS=E&MESSAGE=Try%20later")).toEqual(unclear);
    // A record must carry its id and a known status.
    expect(readGatewayQueryAnswer(200, "id=100000000007&amount=3.00")).toEqual(unclear);
    expect(readGatewayQueryAnswer(200, "MESSAGE=No%20transactions%20found&id=")).toEqual(unclear);
  });
});
