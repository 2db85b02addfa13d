import { ActionIcon, Divider, FocusTrap, Indicator, Popover, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "../../api/api-client";
import { useClientContext } from "../../shared/client-context";

export type Messages = { client_message: string | null; system_message: string | null };

const EMPTY_MESSAGES: Messages = { client_message: null, system_message: null };

function useMessages() {
  const { isAdmin, clientId } = useClientContext();
  return useQuery({
    queryKey: ["messages", isAdmin ? clientId : null],
    queryFn: ({ signal }) =>
      apiFetch<Messages>("/messages", {
        query: { client_id: isAdmin ? clientId : null },
        signal,
        // The catalogue: a failed messages fetch leaves them empty, without an alert.
        handles: "all",
      }),
    retry: false,
  });
}

/** The top bar's bell: a dot when there is a client or system message; the popover shows both. */
export function NotificationBell() {
  const { data = EMPTY_MESSAGES } = useMessages();
  const clientMessage = data.client_message?.trim() ?? "";
  const systemMessage = data.system_message?.trim() ?? "";
  const count = [clientMessage, systemMessage].filter((message) => message !== "").length;

  return (
    // The popover's target is the button itself: Popover.Target puts aria-expanded and
    // aria-haspopup on its child, which a plain <div> (the Indicator) may not carry.
    <Indicator label={count} size={16} disabled={count === 0} color="red" offset={4}>
      {/* Focus moves into the messages (Escape closes only from there) and back to the bell on close. */}
      <Popover width={340} position="bottom-end" shadow="md" withArrow trapFocus returnFocus>
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={count === 0 ? "Notifications" : `Notifications (${count})`}
          >
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <FocusTrap.InitialFocus />
          <Stack gap="sm">
            <MessageSection title="Client message" text={clientMessage} />
            <Divider />
            <MessageSection title="System message" text={systemMessage} />
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}

function MessageSection({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
        {title}
      </Text>
      {text ? (
        <Text size="sm" style={{ whiteSpace: "pre-line" }}>
          {text}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          No message
        </Text>
      )}
    </div>
  );
}

function BellIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </svg>
  );
}
