import { describe, expect, it } from "vitest";
import { openSecret, sealSecret } from "./secret-box.js";

describe("secret box", () => {
  it("seals so that only the same key opens, and never stores the plaintext", () => {
    const sealed = sealSecret("key-one", "gateway-secret-123");
    expect(sealed).not.toContain("gateway-secret-123");
    expect(sealed).toMatch(/^v1\./);
    expect(openSecret("key-one", sealed)).toBe("gateway-secret-123");
    expect(openSecret("key-two", sealed)).toBeNull();
    expect(sealSecret("key-one", "gateway-secret-123")).not.toBe(sealed);
    const tampered = sealed.slice(0, -2) + (sealed.endsWith("A") ? "BB" : "AA");
    expect(openSecret("key-one", tampered)).toBeNull();
    expect(openSecret("key-one", "garbage")).toBeNull();
  });
});
