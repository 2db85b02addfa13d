import { Anchor } from "@mantine/core";
import { Link } from "react-router";

export function BrandLink({ to }: { to: string }) {
  return (
    <Anchor component={Link} to={to} underline="never" c="inherit" fw={700} fz="xl" aria-label="Cyclebill">
      Cyclebill
    </Anchor>
  );
}
