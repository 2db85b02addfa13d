import { PlaceholderPage } from "../shell/PlaceholderPage";

export function AddInvoicePage() {
  return <PlaceholderPage title="Add Invoice" />;
}
