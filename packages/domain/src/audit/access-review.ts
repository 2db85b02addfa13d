import { z } from "zod";
import { integerParam, listQuerySchema } from "../api/list-query.js";

// Issue 39, the access review: who has which role, their factors, last sign-in and sessions, per
// client or provider-wide, and the record that a reviewer looked at it. Shared by server and web.

export const accessReviewRoles = ["admin", "owner", "staff"] as const;

/** The most a review's note holds. */
export const ACCESS_REVIEW_NOTE_MAX = 1000;

/** One user as GET /api/access-review/ answers it. */
export const accessReviewUserSchema = z.object({
  user_id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.enum(accessReviewRoles),
  /** The user's client; null for provider admins. */
  client_id: z.number().int().nullable(),
  client_name: z.string().nullable(),
  /** False: the account is disabled and cannot sign in. */
  active: z.boolean(),
  /** The address's owner followed an emailed link (or the operator made the account). */
  email_proven: z.boolean(),
  /** An authenticator app (TOTP) confirmed. */
  totp: z.boolean(),
  /** Unused recovery codes (0 without an authenticator app). */
  recovery_codes_left: z.number().int(),
  passkeys: z.number().int(),
  /** The user must keep a second factor: their client requires one, or (admins) ADMIN_SECOND_FACTOR. */
  second_factor_required: z.boolean(),
  last_sign_in: z.string().nullable(),
  /** Sessions neither ended nor expired. */
  open_sessions: z.number().int(),
});
export type AccessReviewUser = z.output<typeof accessReviewUserSchema>;

export const accessReviewPageSchema = z.object({
  count: z.number().int(),
  results: z.array(accessReviewUserSchema),
});

/** The fields GET /api/access-review/ orders by (default: client, then email; admins first). */
export const accessReviewOrderings = [
  "name",
  "email",
  "role",
  "client",
  "last_sign_in",
  "open_sessions",
] as const;

/**
 * GET /api/access-review/: one client's users (client_id; an owner's own client without it), or,
 * for a provider admin without client_id, provider-wide (the admins and every client's users).
 */
export const accessReviewQuerySchema = listQuerySchema.extend({
  /** csv: every matching user (not one page) as a download headed by the review date. */
  format: z.enum(["json", "csv"]).optional(),
});
export type AccessReviewQuery = z.infer<typeof accessReviewQuerySchema>;

/** A record that a reviewer looked at the access review, as the API answers it. */
export const accessReviewRecordSchema = z.object({
  id: z.number().int(),
  /** The client reviewed; null for a provider-wide review. */
  client_id: z.number().int().nullable(),
  reviewed_at: z.string(),
  /** The business date of the review. */
  review_date: z.string(),
  reviewer_user_id: z.number().int().nullable(),
  reviewer: z.string(),
  note: z.string(),
  /** How many users the review listed, and how many of them were active. */
  users_count: z.number().int(),
  active_users_count: z.number().int(),
});
export type AccessReviewRecord = z.output<typeof accessReviewRecordSchema>;

export const accessReviewRecordPageSchema = z.object({
  count: z.number().int(),
  results: z.array(accessReviewRecordSchema),
});

/** GET /api/access-review/reviews/: the scope's past reviews, newest first. */
export const accessReviewRecordListQuerySchema = listQuerySchema.pick({
  client_id: true,
  limit: true,
  offset: true,
  page: true,
});

export const ACCESS_REVIEW_NOTE_REQUIRED_MESSAGE = "Say what you checked (a note is required).";

/** POST /api/access-review/reviews/: the scope (as the list's) and what the reviewer found. */
export const accessReviewRecordBodySchema = z.object({
  client_id: integerParam({ min: 1 }).optional(),
  note: z
    .string({ error: ACCESS_REVIEW_NOTE_REQUIRED_MESSAGE })
    .trim()
    .min(1, ACCESS_REVIEW_NOTE_REQUIRED_MESSAGE)
    .max(ACCESS_REVIEW_NOTE_MAX, `Keep the note to ${ACCESS_REVIEW_NOTE_MAX} characters or fewer.`),
});
export type AccessReviewRecordBody = z.input<typeof accessReviewRecordBodySchema>;
