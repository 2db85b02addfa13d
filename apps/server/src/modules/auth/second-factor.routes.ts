import {
  recordIdParamsSchema,
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
import { regenerateRecoveryCodes, removeTotp, resetSecondFactor } from "./second-factor-changes.js";
import { completeSecondFactor } from "./second-factor-sign-in.js";
import { describeSecondFactor } from "./second-factors.js";
import { confirmTotpEnrolment, startTotpEnrolment } from "./totp-enrolment.js";
import { signInFrom } from "./start-session.js";

const tags = ["Access"];

export function registerSecondFactorRoutes(router: Router): void {
  const { db, config } = router.deps;

  defineRoute(router, {
    name: "logInSecondFactor",
    method: "POST",
    url: "/api/auth-jwt/second-factor/",
    summary:
      "The second step of signing in: the challenge from POST /api/auth-jwt/ with a 6-digit code from the authenticator app (each code once) or a recovery code (each once). Throttled as log in is",
    tags,
    access: "public",
    body: secondFactorLoginSchema,
    response: z.object({ token: z.string() }),
    handle: ({ body, request }) => completeSecondFactor(db, config, body, signInFrom(request), request.log),
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
