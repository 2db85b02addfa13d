import { z } from "zod";
import { asOneLine, emailField } from "../api/field-schemas.js";

// Forms and API bodies of the access screens, shared by the server and the web app.

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MISMATCH_MESSAGE = "The two password fields didn't match.";
export const INVALID_CREDENTIALS_MESSAGE = "Unable to log in with provided credentials.";
export const RESET_TOKEN_INVALID_MESSAGE =
  "This password reset link is invalid or has expired. Request a new one.";
export const DUPLICATE_EMAIL_MESSAGE =
  "duplicate key value violates unique constraint: a user with this email address already exists.";

/** A link followed for an address another account has already proven (the follower owns the address). */
export const EMAIL_ALREADY_PROVEN_MESSAGE =
  "This email address already has a Cyclebill account. Log in with it, or use Forgot Password.";
export const CONFIRM_LINK_INVALID_MESSAGE =
  "This confirmation link is invalid or has expired. Register again to get a new one.";

export const PASSWORD_TOO_SHORT_MESSAGE = `Ensure this field has at least ${PASSWORD_MIN_LENGTH} characters.`;
export const PASSWORD_REPEATED_MESSAGE =
  "This password is one character repeated. Choose a less predictable one.";
export const PASSWORD_COMMON_MESSAGE = "This password is too common. Choose a less predictable one.";

/**
 * Why a new password is refused, or null (OWASP ASVS 2.1: at least 8 characters, not a known
 * breached password). The breached-password list lives on the server (too big for the web
 * bundle), so it is passed in; without it only length and repetition are checked.
 */
export function passwordProblem(
  password: string,
  isCommon: (lowerCased: string) => boolean = () => false,
): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_TOO_SHORT_MESSAGE;
  // Counted by code point, so "🙂🙂🙂🙂🙂🙂🙂🙂" is one character repeated too.
  if (new Set(password).size === 1) return PASSWORD_REPEATED_MESSAGE;
  if (isCommon(password.toLowerCase())) return PASSWORD_COMMON_MESSAGE;
  return null;
}

/** A new password: the length and repetition rules (the breached list is checked by the server). */
export const newPassword = z
  .string()
  .min(1)
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT_MESSAGE)
  .max(128)
  // Short ones already have the length message; one message at a time reads better.
  .refine((value) => value.length < PASSWORD_MIN_LENGTH || passwordProblem(value) === null, {
    message: PASSWORD_REPEATED_MESSAGE,
  });

const email = emailField();

/** POST /api/auth-jwt/: a username or an email, and the password. */
export const loginSchema = z.object({
  username: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(128),
  remember_me: z.boolean().default(false),
});
export type LoginInput = z.input<typeof loginSchema>;

/** POST /api/register/. */
export const registrationSchema = z.object({
  firstName: z.string().overwrite(asOneLine).trim().min(1).max(80),
  lastName: z.string().overwrite(asOneLine).trim().min(1).max(80),
  email,
  password: newPassword,
  confirmPassword: z.string().min(1).max(128),
});
export type RegistrationInput = z.input<typeof registrationSchema>;

/**
 * POST /api/register/confirm/: the emailed link's address and token, and the password chosen when
 * registering (the link proves the address, the password that the registrant is the one following it).
 */
export const confirmRegistrationSchema = z.object({
  email,
  token: z.string().trim().min(1).max(200),
  password: z.string().min(1).max(128),
  remember_me: z.boolean().default(false),
});
export type ConfirmRegistrationInput = z.input<typeof confirmRegistrationSchema>;

/** POST /api/forgot-password/. */
export const forgotPasswordSchema = z.object({ email });
export type ForgotPasswordInput = z.input<typeof forgotPasswordSchema>;

/** POST /api/reset-password/. Whether the two passwords match is decided by the server. */
export const resetPasswordSchema = z.object({
  email,
  password: newPassword,
  password_confirmation: z.string().min(1).max(128),
  token: z.string().trim().min(1).max(200),
});
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;
