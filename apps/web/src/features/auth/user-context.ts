import { createContext, useContext } from "react";
import type { UserInfo } from "./current-user";

/** The logged-in user, provided by RequireAuth to every guarded page. */
export const UserContext = createContext<UserInfo | null>(null);

export function useUser(): UserInfo {
  const user = useContext(UserContext);
  if (!user) throw new Error("useUser() is only available on pages behind RequireAuth");
  return user;
}
