import { z } from "zod";
import { US_STATE_CODES } from "../reference/us-states.js";
import { onTheWire } from "./wire-schema.js";

// Field rules shared by the client, customer and transaction forms.

export const ZIP_MESSAGE = "Must be 5 digits";
export const PHONE_PATTERN = /^\(\d{3}\)-\d{3}-\d{4}$/;
/** Stored by older data for "no phone"; shown as empty. */
export const NO_PHONE = "0000000000";

export function invalidPhoneMessage(value: unknown): string {
  return `${String(value)} is not a valid phone number`;
}

/** Runs of line breaks, tabs and other control characters (typed or pasted into one line). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_RUNS = /[\u0000-\u001f\u007f]+/g;

/** One line of text: control characters become one space, so a CR or LF in a name never reaches a label. */
export function asOneLine(value: string): string {
  return value.replace(CONTROL_RUNS, " ");
}

/** A one-line field (names, addresses, contacts): trimmed, control characters made spaces. */
export const trimmedText = (max: number) => z.string().overwrite(asOneLine).trim().max(max);

/** A field that may hold several lines (messages printed on statements, notes). */
export const multiLineText = (max: number) => z.string().trim().max(max);

/** Empty, or exactly 14 characters in the mask (###)-###-####; customers may also carry 0000000000. */
export const phoneField = (options: { allowNoPhone?: boolean } = {}) =>
  onTheWire(
    phoneRule(options),
    wireText(
      options.allowNoPhone === true
        ? "^(|\\(\\d{3}\\)-\\d{3}-\\d{4}|0000000000)$"
        : "^(|\\(\\d{3}\\)-\\d{3}-\\d{4})$",
    ),
  );

/** The documented form of a refined text field: what it accepts, empty included. */
function wireText(pattern: string) {
  return { type: "string" as const, pattern };
}

const phoneRule = (options: { allowNoPhone?: boolean }) =>
  z
    .string()
    .trim()
    .refine(
      (value) =>
        value === "" || (options.allowNoPhone === true && value === NO_PHONE) || PHONE_PATTERN.test(value),
      {
        error: (issue) => invalidPhoneMessage(issue.input),
      },
    );

export const optionalZipField = () => onTheWire(zipRule(), wireText("^(\\d{5})?$"));

const zipRule = () =>
  z
    .string()
    .trim()
    .refine((value) => value === "" || /^\d{5}$/.test(value), ZIP_MESSAGE);

export const optionalStateField = () => onTheWire(stateRule(), wireText(`^(|${US_STATE_CODES.join("|")})$`));

const stateRule = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .refine((value) => value === "" || US_STATE_CODES.includes(value), "Select a state from the list.");

/** Empty, or an email address (at most 254 characters). */
export const optionalEmailField = () => onTheWire(emailRule(), wireText(`^(|${EMAIL_PATTERN})$`));

// Documented stricter than z.email (no dots in the local part) so every documented value is taken.
const EMAIL_PATTERN = "[A-Za-z0-9_+-]{1,40}@([A-Za-z0-9]{1,20}\\.){1,3}[A-Za-z]{2,6}";

/** A required email address (sign-in, users): at most 254 characters. */
export const emailField = () =>
  onTheWire(
    z.string().trim().min(1).max(254).pipe(z.email("Enter a valid email address.")),
    wireText(`^${EMAIL_PATTERN}$`),
  );

const emailRule = () =>
  z
    .string()
    .trim()
    .max(254)
    .refine((value) => value === "" || z.email().safeParse(value).success, "Enter a valid email address.");
