import { Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

/** The heading of a sign-in screen (Login, Register, Forgot and Reset Password): its title, also the tab's, and what it is for. */
export function AuthHeading({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <title>{`${title} · Cyclebill`}</title>
      <div>
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          {children}
        </Text>
      </div>
    </>
  );
}
