import { z } from "zod";
import { integerParam } from "../api/list-query.js";
import { newPassword } from "./auth-schemas.js";

// Sessions (each sign-in) and the signed-in user's own password change, shared by server and web.

export const WRONG_CURRENT_PASSWORD_MESSAGE = "Your current password is not correct.";
export const SAME_PASSWORD_MESSAGE = "Choose a password different from your current one.";

/** One session as GET /api/sessions/ answers it. */
export const sessionSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  /** Readable device from the user agent, e.g. "Chrome on Linux"; "Unknown device" without one. */
  device: z.string(),
  user_agent: z.string().nullable(),
  /** The address it signed in from. */
  address: z.string(),
  started_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
  /** Null while open (then expires_at is still ahead). */
  ended_at: z.string().nullable(),
  /** Why it ended: logout, ended, signed_out_elsewhere, password_changed, password_reset, factor_changed. */
  end_reason: z.string().nullable(),
  active: z.boolean(),
  /** The session of the token asking. */
  current: z.boolean(),
});
export type Session = z.output<typeof sessionSchema>;

export const sessionPageSchema = z.object({ count: z.number().int(), results: z.array(sessionSchema) });

/** GET /api/sessions/: the caller's own, or (owners of the user's client, admins) user_id's. */
export const sessionListQuerySchema = z.object({ user_id: integerParam({ min: 1 }).optional() });
export type SessionListQuery = z.input<typeof sessionListQuerySchema>;

/** POST /api/sessions/end-others/ answers how many it ended. */
export const endedSessionsSchema = z.object({ ended: z.number().int() });

/** POST /api/me/password/: the current password proves it is the user; the new one follows the rules. */
export const changePasswordSchema = z.object({
  current_password: z.string().min(1).max(128),
  new_password: newPassword,
});
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;
