import { Secret, TOTP } from "otpauth";
import { z } from "zod";
import type { ApiClient, ApiResponse } from "../test-app.js";
import { softwarePasskey, type SoftwarePasskey } from "../software-passkey.js";
import { ok, type WalkStep, type WalkWorld } from "./walk-world.js";
import { NEWCOMER, NEWCOMER_PASSWORDS } from "./walk-steps-access.js";

// The audit walk's steps for a user's own security: password change, sessions, a second factor.
// They run last: they end the newcomer's sessions, and a factor reset ends everything of a user.

const LAST_PASSWORD = "walk third pass 3";

const codeOf = (secret: string, steps = 0): string =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

/** Signs the newcomer in with a password (no factor yet): a client with its fresh session. */
async function signedIn(world: WalkWorld, password: string): Promise<ApiClient> {
  const answer = ok(
    await world.anonymous.post("/api/auth-jwt/", { username: NEWCOMER, password }),
    "sign-in",
  );
  return world.testApp.client(z.object({ token: z.string() }).parse(answer.body).token);
}

/** The newcomer as the steps before left them signed in. */
let newcomer: ApiClient;

const tokenOf = (response: ApiResponse): string => z.object({ token: z.string() }).parse(response.body).token;

/** The newcomer's passkey (a software authenticator) and the options the server last handed out. */
let passkey: SoftwarePasskey;
const optionsSchema = z.object({
  options: z.object({
    challenge: z.string(),
    rp: z.object({ id: z.string() }).optional(),
    rpId: z.string().optional(),
  }),
});
let options: z.output<typeof optionsSchema>["options"];

export const securitySteps: WalkStep[] = [
  {
    route: "POST /api/me/password/",
    action: "user.change_password",
    call: async (world) =>
      (await signedIn(world, NEWCOMER_PASSWORDS[1])).post("/api/me/password/", {
        current_password: NEWCOMER_PASSWORDS[1],
        new_password: LAST_PASSWORD,
      }),
  },
  {
    route: "POST /api/sessions/end-others/",
    action: "session.end_others",
    call: async (world) => {
      await signedIn(world, LAST_PASSWORD);
      return (await signedIn(world, LAST_PASSWORD)).post("/api/sessions/end-others/");
    },
  },
  {
    route: "POST /api/sessions/{id}/end/",
    action: "session.end",
    call: async (world) => {
      await signedIn(world, LAST_PASSWORD);
      const me = await signedIn(world, LAST_PASSWORD);
      const sessions = z
        .object({
          results: z.array(
            z.object({ id: z.number(), current: z.boolean(), ended_at: z.string().nullable() }),
          ),
        })
        .parse(ok(await me.get("/api/sessions/"), "sessions").body).results;
      const target = sessions.find((session) => !session.current && session.ended_at === null);
      return me.post(`/api/sessions/${target?.id ?? 0}/end/`);
    },
  },
  {
    route: "POST /api/me/second-factor/totp/",
    action: "second_factor.enrol",
    call: async (world) => {
      const me = await signedIn(world, LAST_PASSWORD);
      const started = await me.post("/api/me/second-factor/totp/");
      world.texts.secret = z.object({ secret: z.string() }).parse(ok(started, "enrol").body).secret;
      newcomer = me;
      return started;
    },
  },
  {
    route: "POST /api/me/second-factor/totp/confirm/",
    action: "second_factor.confirm",
    call: async (world) => {
      const confirmed = await newcomer.post("/api/me/second-factor/totp/confirm/", {
        code: codeOf(world.texts.secret ?? ""),
      });
      newcomer = world.testApp.client(tokenOf(ok(confirmed, "confirm")));
      return confirmed;
    },
  },
  {
    route: "POST /api/me/second-factor/recovery-codes/",
    action: "second_factor.recovery_codes",
    call: async (world) => {
      const made = await newcomer.post("/api/me/second-factor/recovery-codes/", {
        code: codeOf(world.texts.secret ?? "", 1),
      });
      const codes = z
        .object({ recovery_codes: z.array(z.string()) })
        .parse(ok(made, "codes").body).recovery_codes;
      world.texts.recoveryCode = codes[0] ?? "";
      return made;
    },
  },
  {
    route: "POST /api/auth-jwt/second-factor/",
    action: "second_factor.use_recovery_code",
    call: async (world) => {
      const first = await world.anonymous.post("/api/auth-jwt/", {
        username: NEWCOMER,
        password: LAST_PASSWORD,
      });
      const { challenge } = z.object({ challenge: z.string() }).parse(ok(first, "password step").body);
      const second = await world.anonymous.post("/api/auth-jwt/second-factor/", {
        challenge,
        recovery_code: world.texts.recoveryCode,
      });
      newcomer = world.testApp.client(tokenOf(ok(second, "second step")));
      return second;
    },
  },
  {
    route: "DELETE /api/me/second-factor/totp/",
    action: "second_factor.remove",
    call: async (world) => {
      const removed = await newcomer.request("DELETE", "/api/me/second-factor/totp/", {
        body: { password: LAST_PASSWORD },
      });
      // Removing a factor ends every session; the answer holds a fresh one.
      newcomer = world.testApp.client(tokenOf(ok(removed, "remove")));
      return removed;
    },
  },
  {
    route: "POST /api/me/second-factor/passkeys/options/",
    action: "second_factor.passkey_options",
    call: async (world) => {
      passkey = softwarePasskey(world.testApp.config.publicUrl);
      const started = await newcomer.post("/api/me/second-factor/passkeys/options/");
      options = optionsSchema.parse(ok(started, "passkey options").body).options;
      return started;
    },
  },
  {
    route: "POST /api/me/second-factor/passkeys/",
    action: "second_factor.passkey_enrol",
    call: async (world) => {
      const added = await newcomer.post("/api/me/second-factor/passkeys/", {
        name: "Walk laptop",
        response: passkey.register({ challenge: options.challenge, rp: { id: options.rp?.id } }),
      });
      world.made.passkey = z
        .object({ passkey: z.object({ id: z.number() }) })
        .parse(ok(added, "passkey").body).passkey.id;
      newcomer = world.testApp.client(tokenOf(added));
      return added;
    },
  },
  {
    route: "POST /api/auth-jwt/second-factor/passkey-options/",
    action: "second_factor.passkey_options",
    call: async (world) => {
      const first = await world.anonymous.post("/api/auth-jwt/", {
        username: NEWCOMER,
        password: LAST_PASSWORD,
      });
      world.texts.challenge = z
        .object({ challenge: z.string() })
        .parse(ok(first, "password step").body).challenge;
      const answer = await world.anonymous.post("/api/auth-jwt/second-factor/passkey-options/", {
        challenge: world.texts.challenge,
      });
      options = optionsSchema.parse(ok(answer, "sign-in options").body).options;
      return answer;
    },
  },
  {
    route: "POST /api/auth-jwt/second-factor/",
    action: "second_factor.use_passkey",
    call: async (world) => {
      const second = await world.anonymous.post("/api/auth-jwt/second-factor/", {
        challenge: world.texts.challenge,
        passkey: passkey.assert({ challenge: options.challenge, rpId: options.rpId }),
      });
      newcomer = world.testApp.client(tokenOf(ok(second, "passkey step")));
      return second;
    },
  },
  {
    route: "DELETE /api/me/second-factor/passkeys/{id}/",
    action: "second_factor.passkey_remove",
    call: async (world) => {
      const removed = await newcomer.request(
        "DELETE",
        `/api/me/second-factor/passkeys/${world.made.passkey ?? 0}/`,
        {
          body: { password: LAST_PASSWORD },
        },
      );
      newcomer = world.testApp.client(tokenOf(ok(removed, "remove passkey")));
      return removed;
    },
  },
  {
    route: "POST /api/users/{id}/second-factor/reset/",
    action: "second_factor.reset",
    call: async (world) => {
      const me = z
        .object({ userInfo: z.object({ id: z.number() }) })
        .parse(ok(await newcomer.get("/api/me/"), "me").body);
      return world.admin.post(`/api/users/${me.userInfo.id}/second-factor/reset/`, {
        reason: "Walk: lost the phone, identity checked by call-back",
      });
    },
  },
];
