import {
  passkeyEnrolSchema,
  passkeyEnrolledSchema,
  passkeyOptionsSchema,
  passkeySignInOptionsSchema,
  recordIdParamsSchema,
  removePasskeySchema,
  recoveryCodesSchema,
  removeTotpSchema,
  secondFactorLoginSchema,
  secondFactorResetSchema,
  secondFactorStatusSchema,
  totpCodeSchema,
  totpEnrolmentSchema,
} from "@cyclebill/domain";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import { finishPasskeyEnrolment, startPasskeyEnrolment } from "./passkey-enrolment.js";
import { originOf } from "./relying-party.js";
import {
  regenerateRecoveryCodes,
  removePasskey,
  removeTotp,
  resetSecondFactor,
} from "./second-factor-changes.js";
import { completeSecondFactor, passkeyOptionsForChallenge } from "./second-factor-sign-in.js";
import { describeSecondFactor } from "./second-factors.js";
import { confirmTotpEnrolment, startTotpEnrolment } from "./totp-enrolment.js";
import { signInFrom } from "./start-session.js";

const tags = ["Access"];

export function registerSecondFactorRoutes(router: Router): void {
  const { db, config } = router.deps;

  defineRoute(router, {
    name: "logInSecondFactor",
    alsoAnswers: [429],
    method: "POST",
    url: "/api/auth-jwt/second-factor/",
    summary:
      "The second step of signing in: the challenge from POST /api/auth-jwt/ with a 6-digit code from the authenticator app (each code once), a recovery code (each once) or a passkey's answer to the passkey options. Throttled as log in is",
    tags,
    access: "public",
    body: secondFactorLoginSchema,
    response: z.object({ token: z.string() }),
    handle: ({ body, request }) =>
      completeSecondFactor(
        db,
        config,
        body,
        { ...signInFrom(request), origin: originOf(request.headers) },
        request.log,
      ),
  });

  defineRoute(router, {
    name: "passkeySignInOptions",
    method: "POST",
    url: "/api/auth-jwt/second-factor/passkey-options/",
    summary:
      "The second step with a passkey: the challenge from POST /api/auth-jwt/ gives the options for navigator.credentials.get() (a WebAuthn challenge good for five minutes, once)",
    tags,
    access: "public",
    body: passkeySignInOptionsSchema,
    response: passkeyOptionsSchema,
    handle: ({ body, request }) =>
      passkeyOptionsForChallenge(db, config, body.challenge, originOf(request.headers)),
  });

  defineRoute(router, {
    name: "getSecondFactor",
    method: "GET",
    url: "/api/me/second-factor/",
    summary:
      "The signed-in user's second factors: the authenticator app, recovery codes left, and whether one is required",
    tags,
    access: "user",
    openBeforeSecondFactor: true,
    response: secondFactorStatusSchema,
    handle: ({ auth }) => describeSecondFactor(db, auth, config.adminSecondFactor),
  });

  defineRoute(router, {
    name: "startTotpEnrolment",
    method: "POST",
    url: "/api/me/second-factor/totp/",
    summary:
      "Start setting up an authenticator app: its secret, otpauth:// address and QR code (shown once); confirm with a code",
    tags,
    access: "user",
    openBeforeSecondFactor: true,
    response: totpEnrolmentSchema,
    successStatus: 201,
    handle: ({ auth }) => startTotpEnrolment(db, config, auth),
  });

  defineRoute(router, {
    name: "confirmTotpEnrolment",
    method: "POST",
    url: "/api/me/second-factor/totp/confirm/",
    summary:
      "Confirm the authenticator app with a code from it: answers the ten recovery codes (shown once) and a fresh token; the user's other sessions end",
    tags,
    access: "user",
    openBeforeSecondFactor: true,
    body: totpCodeSchema,
    response: recoveryCodesSchema,
    handle: ({ auth, body, request }) =>
      confirmTotpEnrolment(db, config, auth, body.code, signInFrom(request)),
  });

  defineRoute(router, {
    name: "removeTotp",
    method: "DELETE",
    url: "/api/me/second-factor/totp/",
    summary:
      "Remove the authenticator app (and recovery codes) with the current password or a code; refused when the user must keep a second factor. Answers a fresh token; other sessions end",
    tags,
    access: "user",
    openBeforeSecondFactor: true,
    body: removeTotpSchema,
    response: z.object({ token: z.string() }),
    handle: ({ auth, body, request }) => removeTotp(db, config, auth, body, signInFrom(request)),
  });

  defineRoute(router, {
    name: "startPasskeyEnrolment",
    method: "POST",
    url: "/api/me/second-factor/passkeys/options/",
    summary:
      "Start adding a passkey: the options for navigator.credentials.create() (a WebAuthn challenge good for five minutes, once)",
    tags,
    access: "user",
    openBeforeSecondFactor: true,
    response: passkeyOptionsSchema,
    handle: ({ auth, request }) => startPasskeyEnrolment(db, config, auth, originOf(request.headers)),
  });

  defineRoute(router, {
    name: "finishPasskeyEnrolment",
    method: "POST",
    url: "/api/me/second-factor/passkeys/",
    summary:
      "Add a passkey: the browser's answer to the options, with a name for it. Answers the passkey and a fresh token; the user's other sessions end",
    tags,
    access: "user",
    openBeforeSecondFactor: true,
    body: passkeyEnrolSchema,
    response: passkeyEnrolledSchema,
    successStatus: 201,
    handle: ({ auth, body, request }) =>
      finishPasskeyEnrolment(db, config, auth, body, signInFrom(request), originOf(request.headers)),
  });

  defineRoute(router, {
    name: "removePasskey",
    method: "DELETE",
    url: "/api/me/second-factor/passkeys/:id/",
    summary:
      "Remove a passkey with the current password or a code from the app; refused when it is the last factor of a user who must keep one. Answers a fresh token; other sessions end",
    tags,
    access: "user",
    openBeforeSecondFactor: true,
    params: recordIdParamsSchema,
    body: removePasskeySchema,
    response: z.object({ token: z.string() }),
    handle: ({ auth, params, body, request }) =>
      removePasskey(db, config, auth, params.id, body, signInFrom(request)),
  });

  defineRoute(router, {
    name: "regenerateRecoveryCodes",
    method: "POST",
    url: "/api/me/second-factor/recovery-codes/",
    summary: "Ten new recovery codes (shown once) replace the earlier ones; a code from the app proves it",
    tags,
    access: "user",
    body: totpCodeSchema,
    response: recoveryCodesSchema,
    handle: ({ auth, body, request }) => regenerateRecoveryCodes(db, config, auth, body.code, request.ip),
  });

  defineRoute(router, {
    name: "resetSecondFactor",
    method: "POST",
    url: "/api/users/:id/second-factor/reset/",
    summary:
      "Provider admins: remove a user's lost second factor, with a reason (in the audit trail); the user's sessions end and they set up a new one",
    tags,
    access: "admin",
    params: recordIdParamsSchema,
    body: secondFactorResetSchema,
    response: z.object({ detail: z.string() }),
    handle: ({ params, body }) => resetSecondFactor(db, params.id, body.reason),
  });
}
