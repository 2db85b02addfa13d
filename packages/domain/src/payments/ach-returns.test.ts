import { describe, expect, it } from "vitest";
import {
  achReturnCode,
  achReturnText,
  gatewayRecordMeaning,
  isNsfReturn,
  marksDoNotDebit,
  maskCorrectedData,
  mayRepresent,
  nocText,
  returnFeeDue,
} from "./ach-returns.js";

const record = {
  origin: "REJECT",
  paymentType: "ACH",
  transType: "SALE",
  status: "1",
  authCode: "R01",
  message: "",
  settleDate: "",
  masterId: "100000000001",
};

describe("ACH return codes", () => {
  it("names each code with its class; an unknown code keeps the gateway's words", () => {
    expect(achReturnCode("R01")).toMatchObject({ description: "Insufficient funds", returnClass: "nsf" });
    expect(achReturnCode("r03").returnClass).toBe("administrative");
    expect(achReturnCode("R10").returnClass).toBe("unauthorized");
    expect(achReturnCode("R85", "Incorrectly coded outbound")).toEqual({
      code: "R85",
      description: "Incorrectly coded outbound",
      returnClass: "other",
    });
    expect(achReturnText("R01")).toBe("ACH return R01 Insufficient funds");
  });

  it("marks the account do-not-debit for R02-R05, R07, R08, R10, R16, R20, R29 only", () => {
    const marked = ["R02", "R03", "R04", "R05", "R07", "R08", "R10", "R16", "R20", "R29"];
    for (const code of marked) expect(marksDoNotDebit(code)).toBe(true);
    for (const code of ["R01", "R06", "R09", "R11", "R85"]) expect(marksDoNotDebit(code)).toBe(false);
    expect(isNsfReturn("R09")).toBe(true);
    expect(isNsfReturn("R10")).toBe(false);
  });
});

describe("presenting a returned entry again", () => {
  const base = {
    code: "R01",
    clientAllows: true,
    representedSoFar: 0,
    originalDate: "2030-01-01",
    today: "2030-01-05",
  };

  it("allows R01/R09 twice within 180 days of the original, when the client allows it", () => {
    expect(mayRepresent(base)).toBe(true);
    expect(mayRepresent({ ...base, code: "R09", representedSoFar: 1 })).toBe(true);
    expect(mayRepresent({ ...base, today: "2030-06-30" })).toBe(true);
  });

  it("never a third time, never after 180 days, never for other codes, never when off", () => {
    expect(mayRepresent({ ...base, representedSoFar: 2 })).toBe(false);
    expect(mayRepresent({ ...base, today: "2030-07-01" })).toBe(false);
    expect(mayRepresent({ ...base, code: "R10" })).toBe(false);
    expect(mayRepresent({ ...base, clientAllows: false })).toBe(false);
  });
});

describe("the return fee", () => {
  it("is due once, for R01/R09 only, when a fee is set", () => {
    expect(returnFeeDue({ code: "R01", fee: "25.00", feeAlreadyCharged: false })).toBe(true);
    expect(returnFeeDue({ code: "R01", fee: "25.00", feeAlreadyCharged: true })).toBe(false);
    expect(returnFeeDue({ code: "R03", fee: "25.00", feeAlreadyCharged: false })).toBe(false);
    expect(returnFeeDue({ code: "R09", fee: "0.00", feeAlreadyCharged: false })).toBe(false);
  });
});

describe("notifications of change", () => {
  it("keeps the corrected data masked but the last four digits", () => {
    expect(maskCorrectedData("123456789")).toBe("xxxxx6789");
    expect(maskCorrectedData("C:021000021:987654321")).toBe("C:xxxxxxxxx:xxxxx4321");
    expect(maskCorrectedData("SAVINGS")).toBe("SAVINGS");
    expect(nocText("C01")).toBe("Bank correction C01 Incorrect account number");
  });
});

describe("what a confirmed gateway record means", () => {
  it("reads ACH returns and NOCs from auth_code, card rejects as chargebacks or their reversal", () => {
    expect(gatewayRecordMeaning(record)).toBe("returned");
    expect(gatewayRecordMeaning({ ...record, authCode: "C01" })).toBe("noc");
    expect(gatewayRecordMeaning({ ...record, authCode: "" })).toBeNull();
    const card = { ...record, paymentType: "CREDIT", authCode: "4837" };
    expect(gatewayRecordMeaning({ ...card, transType: "REFUND" })).toBe("charged_back");
    expect(gatewayRecordMeaning({ ...card, transType: "SALE" })).toBe("chargeback_reversed");
    expect(gatewayRecordMeaning({ ...record, masterId: "" })).toBeNull();
    // An ACH reject code on a record naming its original reads as a reject where origin is left out.
    expect(gatewayRecordMeaning({ ...record, origin: "" })).toBe("returned");
    expect(gatewayRecordMeaning({ ...record, origin: "", authCode: "123456" })).toBeNull();
  });

  it("an approved sale with a settlement date is settled; anything else means nothing", () => {
    const sale = { ...record, origin: "bp20post", authCode: "123456", masterId: "" };
    expect(gatewayRecordMeaning({ ...sale, settleDate: "2030-01-02 18:00:00" })).toBe("settled");
    expect(gatewayRecordMeaning(sale)).toBeNull();
    expect(gatewayRecordMeaning({ ...sale, status: "0", settleDate: "2030-01-02" })).toBeNull();
  });
});
