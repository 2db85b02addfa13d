import { describe, expect, it } from "vitest";
import {
  PASSWORD_COMMON_MESSAGE,
  PASSWORD_REPEATED_MESSAGE,
  PASSWORD_TOO_SHORT_MESSAGE,
  passwordProblem,
  registrationSchema,
} from "./auth-schemas.js";

const list = new Set(["password", "12345678"]);
const isCommon = (lowerCased: string) => list.has(lowerCased);

describe("new passwords", () => {
  it("refuses short ones, one character repeated, and listed ones case-insensitively", () => {
    expect(passwordProblem("short", isCommon)).toBe(PASSWORD_TOO_SHORT_MESSAGE);
    expect(passwordProblem("aaaaaaaa", isCommon)).toBe(PASSWORD_REPEATED_MESSAGE);
    expect(passwordProblem("        ", isCommon)).toBe(PASSWORD_REPEATED_MESSAGE);
    expect(passwordProblem("🙂🙂🙂🙂🙂🙂🙂🙂", isCommon)).toBe(PASSWORD_REPEATED_MESSAGE);
    expect(passwordProblem("PassWord", isCommon)).toBe(PASSWORD_COMMON_MESSAGE);
    expect(passwordProblem("12345678", isCommon)).toBe(PASSWORD_COMMON_MESSAGE);
    expect(passwordProblem("correct horse battery", isCommon)).toBeNull();
    // Without a list (the web's forms) only length and repetition are checked.
    expect(passwordProblem("password")).toBeNull();
  });

  it("puts the repetition rule in the shared form schema, one message at a time", () => {
    const form = { firstName: "A", lastName: "B", email: "a@example.com", confirmPassword: "x" };
    const issues = (password: string) =>
      registrationSchema.safeParse({ ...form, password }).error?.issues.map((issue) => issue.message) ?? [];
    expect(issues("aaaaaaaa")).toEqual([PASSWORD_REPEATED_MESSAGE]);
    expect(issues("aaa")).toEqual([PASSWORD_TOO_SHORT_MESSAGE]);
    expect(issues("a good password")).toEqual([]);
  });
});
