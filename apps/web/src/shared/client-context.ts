import { useLocation, useNavigate } from "react-router";
import { useUser } from "../features/auth/user-context";
import { clearSelectedCustomer } from "../features/customers/selected-customer";
import { useClientRecord } from "../features/clients/client-api";

export const CLIENT_ID_PARAM = "client_id";

export type ClientContext = {
  isAdmin: boolean;
  /** The client being worked on: from the address for admins, the user's own for everyone else. */
  clientId: number | null;
  clientName: string | null;
  /** Admins only: writes client_id into the address as a new history entry. */
  selectClient: (clientId: number | null) => void;
  /** `to` with the admin's client_id added, so links keep the selected client. */
  withClient: (to: string) => string;
};

export function parseClientId(raw: string | null): number | null {
  if (raw === null || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function addClientId(to: string, clientId: number | null): string {
  if (clientId === null) return to;
  const url = new URL(to, "http://cyclebill.invalid");
  url.searchParams.set(CLIENT_ID_PARAM, String(clientId));
  return `${url.pathname}${url.search}${url.hash}`;
}

export function useClientContext(): ClientContext {
  const user = useUser();
  const location = useLocation();
  const navigate = useNavigate();
  const isAdmin = user.isAdmin;
  // Non-admins are locked to their own client whatever the address says.
  const clientId = isAdmin
    ? parseClientId(new URLSearchParams(location.search).get(CLIENT_ID_PARAM))
    : user.client_id;

  const record = useClientRecord(isAdmin ? clientId : null);
  const clientName = isAdmin ? (record.data?.client_name ?? null) : (user.client?.client_name ?? null);

  const selectClient = (next: number | null) => {
    if (!isAdmin || next === clientId) return;
    const params = new URLSearchParams(location.search);
    if (next === null) params.delete(CLIENT_ID_PARAM);
    else params.set(CLIENT_ID_PARAM, String(next));
    // A customer belongs to one client, so a customer picked (or addressed) under the old one goes.
    params.delete("customer_id");
    clearSelectedCustomer();
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : "" });
  };

  const withClient = (to: string) => (isAdmin ? addClientId(to, clientId) : to);

  return { isAdmin, clientId, clientName, selectClient, withClient };
}
