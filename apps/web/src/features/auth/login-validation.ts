import { loginSchema } from "@cyclebill/domain";
import { validateForm } from "./form-validation";

/** The login form's check against the shared schema; loaded after the form shows (see LoginPage). */
export function validateLogin(values: { username: string; password: string; remember_me: boolean }) {
  return validateForm(loginSchema, values);
}
