import { PlaceholderPage } from "../shell/PlaceholderPage";

export function EditInvoicePage() {
  return <PlaceholderPage title="Edit Invoice" />;
}
