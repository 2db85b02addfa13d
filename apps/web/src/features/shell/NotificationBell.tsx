import {
  ActionIcon,
  Button,
  Divider,
  FocusTrap,
  Group,
  Indicator,
  Popover,
  Stack,
  Text,
  Textarea,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch, describeApiError } from "../../api/api-client";
import { useClientContext } from "../../shared/client-context";
import { useUser } from "../auth/user-context";
import { parseSeen, seenStorageKey, unreadCount, type BellMessages } from "./bell-seen";
import { StrokeIcon } from "./icons";

export type Messages = { client_message: string | null; system_message: string | null };

const EMPTY_MESSAGES: Messages = { client_message: null, system_message: null };
/** The server's limit on the system message (PUT /api/messages). */
const SYSTEM_MESSAGE_MAX = 1000;

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

function useSetSystemMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (systemMessage: string) =>
      apiFetch<Messages>("/messages", {
        method: "PUT",
        body: { system_message: systemMessage },
        handles: "all",
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["messages"] }),
  });
}

/** What this user has read, per client, in the browser's storage. */
function useSeenMessages(key: string) {
  const [seen, setSeen] = useState<BellMessages>(() => parseSeen(readStorage(key)));
  const [seenKey, setSeenKey] = useState(key);
  if (seenKey !== key) {
    setSeenKey(key);
    setSeen(parseSeen(readStorage(key)));
  }
  const markSeen = (messages: BellMessages) => {
    setSeen(messages);
    try {
      localStorage.setItem(key, JSON.stringify(messages));
    } catch {
      // Storage full or blocked: the badge clears for this visit only.
    }
  };
  return { seen, markSeen };
}

function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * The top bar's bell: a badge counting the client and system messages not yet read; opening the
 * bell reads them. Admins write the system message here.
 */
export function NotificationBell() {
  const user = useUser();
  const { isAdmin, clientId } = useClientContext();
  const { data = EMPTY_MESSAGES } = useMessages();
  const current: BellMessages = {
    client_message: data.client_message?.trim() ?? "",
    system_message: data.system_message?.trim() ?? "",
  };
  const { seen, markSeen } = useSeenMessages(seenStorageKey(user.id, isAdmin ? clientId : user.client_id));
  const [opened, setOpened] = useState(false);
  const count = unreadCount(current, seen);
  const open = (next: boolean) => {
    setOpened(next);
    if (next) markSeen(current);
  };

  return (
    // The popover's target is the button itself: Popover.Target puts aria-expanded and
    // aria-haspopup on its child, which a plain <div> (the Indicator) may not carry.
    <Indicator label={count} size={16} disabled={count === 0} color="red" offset={4}>
      {/* Focus moves into the messages (Escape closes only from there) and back to the bell on close. */}
      <Popover
        width={340}
        position="bottom-end"
        shadow="md"
        withArrow
        trapFocus
        returnFocus
        opened={opened}
        onChange={open}
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={count === 0 ? "Notifications" : `Notifications (${String(count)} unread)`}
            onClick={() => open(!opened)}
          >
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <FocusTrap.InitialFocus />
          <Stack gap="sm">
            <MessageSection title="Client message" text={current.client_message} />
            <Divider />
            {isAdmin ? (
              <SystemMessageEditor text={current.system_message} />
            ) : (
              <MessageSection title="System message" text={current.system_message} />
            )}
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}

/** Admins: the system message, shown to every user of every client, with Edit. */
function SystemMessageEditor({ text }: { text: string }) {
  const [draft, setDraft] = useState<string | null>(null);
  const save = useSetSystemMessage();
  if (draft === null) {
    return (
      <div>
        <MessageSection title="System message" text={text} />
        <Button size="xs" variant="light" mt="xs" onClick={() => setDraft(text)}>
          Edit system message
        </Button>
      </div>
    );
  }
  const tooLong = draft.trim().length > SYSTEM_MESSAGE_MAX;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (tooLong) return;
        save.mutate(draft.trim(), { onSuccess: () => setDraft(null) });
      }}
    >
      <Textarea
        label="System message"
        description={`Shown to every user under the bell. ${String(draft.trim().length)} of ${String(SYSTEM_MESSAGE_MAX)} characters; empty clears it.`}
        autosize
        minRows={3}
        maxRows={8}
        value={draft}
        onChange={(event) => setDraft(event.currentTarget.value)}
        error={
          tooLong
            ? `The system message must be at most ${String(SYSTEM_MESSAGE_MAX)} characters.`
            : save.isError
              ? describeApiError(save.error)
              : undefined
        }
      />
      <Group justify="flex-end" gap="xs" mt="xs">
        <Button size="xs" variant="default" onClick={() => setDraft(null)} disabled={save.isPending}>
          Cancel
        </Button>
        <Button size="xs" type="submit" loading={save.isPending} disabled={tooLong}>
          Save
        </Button>
      </Group>
    </form>
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
    <StrokeIcon size={20}>
      <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
    </StrokeIcon>
  );
}
