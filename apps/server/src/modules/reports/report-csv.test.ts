import { describe, expect, it } from "vitest";
import { guardFormula, toCsv, toCsvLine } from "./report-csv.js";

describe("the one CSV writer", () => {
  it("neutralises every formula start a spreadsheet runs, but keeps numbers numbers", () => {
    for (const formula of ["=SUM(A1)", "+1+1", "-1+1", "@cmd", "\t=1", "\r=1"])
      expect(guardFormula(formula)).toBe(`'${formula}`);
    for (const plain of ["-12.30", "42", "0.5", "Acme", ""]) expect(guardFormula(plain)).toBe(plain);
  });

  it("quotes separators, quotes and line breaks, and ends lines with CRLF", () => {
    expect(toCsvLine(["a,b", 'say "hi"', "two\nlines", -12.3, null, "=1"])).toBe(
      '"a,b","say ""hi""","two\nlines",-12.3,,\'=1\r\n',
    );
    expect(toCsv([{ id: 1, name: "\tTab" }], ["id", "name"])).toBe("id,name\r\n1,'\tTab\r\n");
    expect(toCsv([], ["id", "name"])).toBe("id,name\r\n");
  });
});
