import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { passwordProblem } from "@cyclebill/domain";
import { fieldError } from "../../http/errors.js";

/*
 * common-passwords.txt: the 10,000 most frequent passwords of 8 or more characters, lower-cased,
 * in the order of the breached-password frequency list `passwords.json` of the npm package
 * @zxcvbn-ts/language-common 4.1.3 (MIT licence, https://github.com/zxcvbn-ts/zxcvbn). Shorter
 * ones need no list: the length rule refuses them. Generated once; regenerate the same way to
 * refresh it.
 */
// Resolved from apps/server/{src,dist}/modules/auth alike: tsc does not copy .txt files to dist.
const LIST_FILE = fileURLToPath(new URL("../../../src/modules/auth/common-passwords.txt", import.meta.url));

let list: ReadonlySet<string> | undefined;

/** The list, read once on first use. */
export function commonPasswords(): ReadonlySet<string> {
  list ??= new Set(
    readFileSync(LIST_FILE, "utf8")
      .split("\n")
      .filter((line) => line !== ""),
  );
  return list;
}

export function isCommonPassword(lowerCased: string): boolean {
  return commonPasswords().has(lowerCased);
}

/** Refuses a new password that is short, one character repeated, or on the breached list. */
export function assertAcceptablePassword(field: string, password: string): void {
  const problem = passwordProblem(password, isCommonPassword);
  if (problem) throw fieldError(field, problem);
}
