import {
  changePasswordSchema,
  confirmRegistrationSchema,
  forgotPasswordSchema,
  loginAnswerSchema,
  loginSchema,
  meSchema,
  recordQuerySchema,
  registrationSchema,
  resetPasswordSchema,
  userNameFields,
} from "@cyclebill/domain";
import { z } from "zod";
import { defineRoute, type Router } from "../../http/router.js";
import { describeCurrentUser } from "./current-user.js";
import { listLoginAlerts, loginAlertSchema } from "./login-alerts.js";
import { logIn } from "./log-in.js";
import { logOut } from "./log-out.js";
import { requestPasswordReset, resetPassword } from "./password-reset.js";
import { registerUser } from "./register-user.js";
import { confirmRegistration } from "./confirm-registration.js";
import { changePassword } from "./change-password.js";
import { signInFrom } from "./start-session.js";

const tags = ["Access"];
const successSchema = z.object({ success: z.literal(true) });

export function registerAuthRoutes(router: Router): void {
  const { db, config, mailer } = router.deps;

  defineRoute(router, {
    name: "logIn",
    alsoAnswers: [429],
    method: "POST",
    url: "/api/auth-jwt/",
    summary:
      "Log in with a username or email and a password; remember_me gives a 30-day token. A user with a second factor gets {second_factor_required, challenge, methods} instead, for POST /api/auth-jwt/second-factor/",
    tags,
    access: "public",
    body: loginSchema,
    response: loginAnswerSchema,
    handle: ({ body, request }) =>
      logIn(db, mailer, config.publicUrl, config.jwtSecret, body, signInFrom(request), request.log),
  });

  defineRoute(router, {
    name: "listLoginAlerts",
    method: "GET",
    url: "/api/login-alerts/",
    summary:
      "Every account whose sign-in is under attack, the provider's admins included: more failed logins in the last hour than the throttle's account limit (admins only)",
    tags,
    access: "admin",
    response: z.object({ count: z.number().int(), results: z.array(loginAlertSchema) }),
    handle: () => listLoginAlerts(db, undefined),
  });

  defineRoute(router, {
    name: "getCurrentUser",
    method: "GET",
    url: "/api/me/",
    summary: "The signed-in user, and whether the (selected) client has a payment gateway key",
    tags,
    access: "user",
    query: recordQuerySchema,
    response: meSchema,
    openBeforeSecondFactor: true,
    handle: ({ auth, query }) => describeCurrentUser(db, auth, query.client_id),
  });

  defineRoute(router, {
    name: "logOut",
    method: "POST",
    url: "/api/auth/logout/",
    summary: "Log out: the token's session ends, and the token is refused from now on",
    tags,
    access: "user",
    response: z.object({ detail: z.string() }),
    openBeforeSecondFactor: true,
    handle: ({ auth }) => logOut(db, auth),
  });

  defineRoute(router, {
    name: "changePassword",
    alsoAnswers: [429],
    method: "POST",
    url: "/api/me/password/",
    summary:
      "Change your own password with the current one (a wrong one is a field error, throttled as log in is); every other session of yours ends, this one keeps working",
    tags,
    access: "user",
    body: changePasswordSchema,
    response: z.object({ success: z.literal(true), ended_sessions: z.number().int() }),
    handle: ({ auth, body, request }) => changePassword(db, auth, body, request.ip, request.log),
  });

  defineRoute(router, {
    name: "registerUser",
    alsoAnswers: [429],
    method: "POST",
    url: "/api/register/",
    summary:
      "Register a user (attached to no client until the provider attaches it), who signs in once the emailed link is followed. The same answer whether or not the email already has an account (its owner is emailed instead); 429 past 10 registrations an hour from one address",
    tags,
    access: "public",
    body: registrationSchema,
    response: z.object(userNameFields).omit({ id: true }),
    successStatus: 201,
    handle: ({ body, request }) => registerUser(db, mailer, config.publicUrl, body, request.ip),
  });

  defineRoute(router, {
    name: "confirmRegistration",
    alsoAnswers: [429],
    method: "POST",
    url: "/api/register/confirm/",
    summary:
      "Follow a registration's emailed link: the link's email and token with the password chosen when registering prove the address; answers a token as log in does. Throttled as log in is",
    tags,
    access: "public",
    body: confirmRegistrationSchema,
    response: z.object({ token: z.string() }),
    handle: ({ body, request }) =>
      confirmRegistration(db, config.jwtSecret, body, signInFrom(request), request.log),
  });

  defineRoute(router, {
    name: "requestPasswordReset",
    alsoAnswers: [429],
    method: "POST",
    url: "/api/forgot-password/",
    summary:
      "Email a password reset link (the same answer whether or not the address has an account; 5 emails an hour per address, 429 past 20 requests an hour from one client)",
    tags,
    access: "public",
    body: forgotPasswordSchema,
    response: successSchema,
    handle: ({ body, request }) => requestPasswordReset(db, mailer, config.publicUrl, body, request.ip),
  });

  defineRoute(router, {
    name: "resetPassword",
    alsoAnswers: [429],
    method: "POST",
    url: "/api/reset-password/",
    summary:
      "Set a new password with the emailed single-use token (checked before the password is hashed); 429 past 20 attempts an hour from one address",
    tags,
    access: "public",
    body: resetPasswordSchema,
    response: successSchema,
    handle: ({ body, request }) => resetPassword(db, body, request.ip),
  });
}
