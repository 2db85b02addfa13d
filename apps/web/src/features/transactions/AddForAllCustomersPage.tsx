import { PlaceholderPage } from "../shell/PlaceholderPage";

export function AddForAllCustomersPage() {
  return <PlaceholderPage title="Add Transactions for All Customers" />;
}
