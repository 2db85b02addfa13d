import { z } from "zod";

/** Who a user is by name: the fields every user record of the API starts with. */
export const userNameFields = {
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  name: z.string(),
};

/** GET /api/me/: the signed-in user, and whether the (selected) client has a payment gateway key. */
export const meSchema = z.object({
  userInfo: z.object({
    ...userNameFields,
    is_client_staff: z.boolean(),
    isAdmin: z.boolean(),
    role: z.enum(["admin", "owner", "staff"]),
    client_id: z.number().int().nullable(),
    client: z
      .object({ id: z.number().int(), client_no: z.number().int(), client_name: z.string() })
      .nullable(),
  }),
  has_blue_pay_key: z.boolean(),
  /** The user must set up a second factor before reaching anything but enrolment. */
  second_factor_enrolment_required: z.boolean(),
});
export type Me = z.output<typeof meSchema>;
export type UserInfo = Me["userInfo"];
export type UserRole = UserInfo["role"];
export type UserClient = NonNullable<UserInfo["client"]>;
