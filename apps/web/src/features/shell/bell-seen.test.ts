import { describe, expect, test } from "vitest";
import { parseSeen, seenStorageKey, unreadCount } from "./bell-seen";

describe("the bell's unread count", () => {
  const both = { client_message: "Office closed Friday", system_message: "Maintenance at 22:00" };

  test("every non-empty message is unread until seen", () => {
    expect(unreadCount(both, parseSeen(null))).toBe(2);
    expect(unreadCount({ client_message: "", system_message: "Hi" }, parseSeen(null))).toBe(1);
    expect(unreadCount({ client_message: "", system_message: "" }, parseSeen(null))).toBe(0);
  });

  test("seen messages clear the badge; a changed one lights it again", () => {
    expect(unreadCount(both, both)).toBe(0);
    expect(unreadCount({ ...both, system_message: "Maintenance moved to 23:00" }, both)).toBe(1);
  });

  test("unreadable storage counts as nothing seen", () => {
    expect(parseSeen("not json")).toEqual({ client_message: "", system_message: "" });
    expect(parseSeen("[1]")).toEqual({ client_message: "", system_message: "" });
    expect(parseSeen(JSON.stringify(both))).toEqual(both);
  });

  test("seen messages are kept per user and client", () => {
    expect(seenStorageKey(7, null)).not.toBe(seenStorageKey(7, 3));
    expect(seenStorageKey(7, 3)).not.toBe(seenStorageKey(8, 3));
  });
});
