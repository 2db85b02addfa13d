import { z } from "zod";
import { onTheWire } from "../api/wire-schema.js";

/** Answered by every route a user held at second-factor enrolment may not reach (403). */
export const SECOND_FACTOR_ENROLMENT_MESSAGE = "Set up a second factor to continue.";
export const INVALID_SECOND_FACTOR_CODE_MESSAGE = "That code is not right, or was already used.";
export const EXPIRED_CHALLENGE_MESSAGE = "This sign-in took too long. Log in again.";
export const RECOVERY_CODE_COUNT = 10;

export const secondFactorMethods = ["totp", "recovery_code", "passkey"] as const;
export type SecondFactorMethod = (typeof secondFactorMethods)[number];

// Six digits, spaces anywhere (as apps show "123 456"): the document says so.
const totpCode = onTheWire(
  z
    .string()
    .trim()
    .transform((value) => value.replace(/\s+/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from your authenticator app.")),
  { type: "string", pattern: "^\\s*(\\d\\s*){6}$", description: "Six digits; spaces are ignored." },
);
const recoveryCode = z.string().trim().min(1).max(40);
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, "Not base64url.");
const transports = z.array(z.string().max(20)).max(10);

/** A browser's answer to navigator.credentials.create(), as @simplewebauthn/browser sends it. */
export const passkeyRegistrationResponseSchema = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(4000),
    attestationObject: base64url(20000),
    transports: transports.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

/** A browser's answer to navigator.credentials.get(), as @simplewebauthn/browser sends it. */
export const passkeyAuthenticationResponseSchema = z.object({
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url(4000),
    authenticatorData: base64url(4000),
    signature: base64url(1000),
    userHandle: base64url(200).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
});

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
    passkey: passkeyAuthenticationResponseSchema.optional(),
  })
  .refine(
    (input) =>
      [input.code, input.recovery_code, input.passkey].filter((given) => given !== undefined).length === 1,
    { message: "Send one of code, recovery_code or passkey." },
  );
export type SecondFactorLoginInput = z.input<typeof secondFactorLoginSchema>;

/** One of the user's passkeys as they see it (never its key). */
export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.output<typeof passkeySchema>;

/** GET /api/me/second-factor/. */
export const secondFactorStatusSchema = z.object({
  totp: z.object({ enrolled: z.boolean(), pending: z.boolean(), confirmed_at: z.string().nullable() }),
  passkeys: z.array(passkeySchema),
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

/**
 * The options for navigator.credentials.create()/get() (PublicKeyCredentialCreationOptionsJSON or
 * RequestOptionsJSON), handed to @simplewebauthn/browser as they are.
 */
export const passkeyOptionsSchema = z.object({
  options: z.looseObject({ challenge: z.string() }),
});
export type PasskeyOptions = z.output<typeof passkeyOptionsSchema>;

/** POST /api/me/second-factor/passkeys/: the browser's answer with the name the user gives it. */
export const passkeyEnrolSchema = z.object({
  name: z.string().trim().min(1).max(100),
  response: passkeyRegistrationResponseSchema,
});
export type PasskeyEnrolInput = z.input<typeof passkeyEnrolSchema>;

/** The passkey kept, and a fresh token (the user's other sessions ended). */
export const passkeyEnrolledSchema = z.object({ passkey: passkeySchema, token: z.string() });
export type PasskeyEnrolled = z.output<typeof passkeyEnrolledSchema>;

/** POST /api/auth-jwt/second-factor/passkey-options/: the password step's challenge. */
export const passkeySignInOptionsSchema = z.object({ challenge: z.string().min(1).max(2000) });
export type PasskeySignInOptionsInput = z.input<typeof passkeySignInOptionsSchema>;

/** DELETE /api/me/second-factor/passkeys/{id}/: proven as removing the app is. */
export const removePasskeySchema = removeTotpSchema;
export type RemovePasskeyInput = z.input<typeof removePasskeySchema>;
