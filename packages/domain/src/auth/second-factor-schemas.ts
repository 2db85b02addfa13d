import { z } from "zod";

/** Answered by every route a user held at second-factor enrolment may not reach (403). */
export const SECOND_FACTOR_ENROLMENT_MESSAGE = "Set up a second factor to continue.";
export const INVALID_SECOND_FACTOR_CODE_MESSAGE = "That code is not right, or was already used.";
export const EXPIRED_CHALLENGE_MESSAGE = "This sign-in took too long. Log in again.";
export const RECOVERY_CODE_COUNT = 10;

export const secondFactorMethods = ["totp", "recovery_code"] as const;
export type SecondFactorMethod = (typeof secondFactorMethods)[number];

const totpCode = z
  .string()
  .trim()
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app."));
const recoveryCode = z.string().trim().min(1).max(40);

/** POST /api/auth-jwt/ when the password was right and the user has a second factor. */
export const secondFactorChallengeSchema = z.object({
  second_factor_required: z.literal(true),
  challenge: z.string(),
  methods: z.array(z.enum(secondFactorMethods)),
});
export type SecondFactorChallenge = z.output<typeof secondFactorChallengeSchema>;

/** POST /api/auth-jwt/: a token, or the second step's challenge. */
export const loginAnswerSchema = z.union([z.object({ token: z.string() }), secondFactorChallengeSchema]);
export type LoginAnswer = z.output<typeof loginAnswerSchema>;

/** POST /api/auth-jwt/second-factor/: the challenge with a code from the app or a recovery code. */
export const secondFactorLoginSchema = z
  .object({
    challenge: z.string().min(1).max(2000),
    code: totpCode.optional(),
    recovery_code: recoveryCode.optional(),
  })
  .refine((input) => (input.code === undefined) !== (input.recovery_code === undefined), {
    message: "Send either code or recovery_code.",
  });
export type SecondFactorLoginInput = z.input<typeof secondFactorLoginSchema>;

/** GET /api/me/second-factor/. */
export const secondFactorStatusSchema = z.object({
  totp: z.object({ enrolled: z.boolean(), pending: z.boolean(), confirmed_at: z.string().nullable() }),
  recovery_codes_left: z.number().int(),
  /** The user must keep a factor (admin under ADMIN_SECOND_FACTOR=required, or a client's rule). */
  required: z.boolean(),
});
export type SecondFactorStatus = z.output<typeof secondFactorStatusSchema>;

/** POST /api/me/second-factor/totp/: what the authenticator app needs (shown once). */
export const totpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauth_uri: z.string(),
  qr_code: z.string(),
});
export type TotpEnrolment = z.output<typeof totpEnrolmentSchema>;

/** POST /api/me/second-factor/totp/confirm/ and the recovery codes' regeneration. */
export const totpCodeSchema = z.object({ code: totpCode });
export type TotpCodeInput = z.input<typeof totpCodeSchema>;

/** The ten recovery codes, shown once; token: a fresh one when other sessions were ended. */
export const recoveryCodesSchema = z.object({
  recovery_codes: z.array(z.string()),
  token: z.string().optional(),
});
export type RecoveryCodes = z.output<typeof recoveryCodesSchema>;

/** DELETE /api/me/second-factor/totp/: the current password or a code proves it is the user. */
export const removeTotpSchema = z
  .object({ password: z.string().min(1).max(128).optional(), code: totpCode.optional() })
  .refine((input) => input.password !== undefined || input.code !== undefined, {
    message: "Enter your current password or a code from your authenticator app.",
  });
export type RemoveTotpInput = z.input<typeof removeTotpSchema>;

/** POST /api/users/{id}/second-factor/reset/: a provider admin, with why. */
export const secondFactorResetSchema = z.object({ reason: z.string().trim().min(1).max(500) });
export type SecondFactorResetInput = z.input<typeof secondFactorResetSchema>;
