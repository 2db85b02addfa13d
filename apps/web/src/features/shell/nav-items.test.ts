import { describe, expect, test } from "vitest";
import { NAV_ITEMS, visibleNavItems } from "./nav-items";

const labels = (viewer: Parameters<typeof visibleNavItems>[1]) =>
  visibleNavItems(NAV_ITEMS, viewer).map((item) => item.label);

describe("the navbar's Access review entry", () => {
  test("is for the provider's admins and the client's owners, not for staff", () => {
    expect(labels({ loggedIn: true, isAdmin: true })).toContain("Access review");
    expect(labels({ loggedIn: true, isAdmin: false, isOwner: true })).toContain("Access review");
    expect(labels({ loggedIn: true, isAdmin: false, isOwner: false })).not.toContain("Access review");
    expect(labels({ loggedIn: true, isAdmin: false })).not.toContain("Access review");
  });

  test("is hidden from a user held at second-factor enrolment", () => {
    expect(labels({ loggedIn: true, isAdmin: true, held: true })).toEqual(["Security", "Signout"]);
  });
});
