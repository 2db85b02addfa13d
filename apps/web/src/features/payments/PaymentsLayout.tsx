import { Text } from "@mantine/core";
import { PublicFrame } from "../shell/PublicLayout";
import { PAYMENT_PROVIDER } from "./payment-form";

/** The public payments page's frame: no navbar (no login needed), wider than login's for the form. */
export function PaymentsLayout() {
  return (
    <PublicFrame
      home="/payments"
      width={640}
      headerEnd={
        <Text size="sm" c="dimmed">
          Secure payments by {PAYMENT_PROVIDER}
        </Text>
      }
    />
  );
}
