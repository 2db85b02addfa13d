import { CODE_TYPES, codeInputSchema, type CodeInput, type CodeType } from "@cyclebill/domain";
import { ApiError } from "../../api/api-client";
import { fieldErrorsFromBody } from "../../api/field-errors";
import { validateForm, type FieldErrors } from "../auth/form-validation";
import type { Code } from "./codes-api";

/** A code as its form holds it: the number as typed, no type chosen yet as "". */
export type CodeDraft = {
  code: string;
  code_name: string;
  description: string;
  code_type: CodeType | "";
  taxable: boolean;
};
export type CodeField = keyof CodeDraft;

const CODE_FIELDS: readonly CodeField[] = ["code", "code_name", "description", "code_type", "taxable"];

export function draftOf(code: Code): CodeDraft {
  return {
    code: String(code.code),
    code_name: code.code_name,
    description: code.description,
    code_type: code.code_type,
    taxable: code.taxable,
  };
}

export function validateDraft(
  draft: CodeDraft,
): { ok: true; data: CodeInput } | { ok: false; errors: FieldErrors<CodeField> } {
  return validateForm(codeInputSchema, {
    ...draft,
    // An empty number reads as missing ("This field is required.").
    code: draft.code.trim() === "" ? undefined : draft.code.trim(),
    // No choice yet reads as a missing field.
    code_type: draft.code_type === "" ? undefined : draft.code_type,
  });
}

/** Field messages from a refused save, and the first of them for the alert. */
export function saveErrors(error: unknown): { errors: FieldErrors<CodeField>; detail?: string } {
  if (!(error instanceof ApiError) || error.status !== 400) return { errors: {} };
  const errors = fieldErrorsFromBody(error.body, CODE_FIELDS);
  return { errors, detail: Object.values(errors)[0] ?? error.message };
}

export function isCodeType(value: string | null): value is CodeType {
  return (CODE_TYPES as readonly string[]).includes(value ?? "");
}
