import { Navigate, useLocation } from "react-router";

/** A redirect that keeps the query string (client_id, redirect, ...), which <Navigate to="..."> drops. */
export function NavigateKeepingQuery({ to }: { to: string }) {
  const { search, hash } = useLocation();
  return <Navigate to={{ pathname: to, search, hash }} replace />;
}
