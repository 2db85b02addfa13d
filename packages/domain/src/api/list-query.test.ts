import { describe, expect, it } from "vitest";
import { listQuerySchema, parseOrdering, resolvePaging } from "./list-query.js";
import { drfErrorMap } from "./drf-messages.js";

describe("list query", () => {
  it("reads paging from query strings", () => {
    const query = listQuerySchema.parse({ client_id: "3", limit: "15", page: "2", extra: "kept" });
    expect(query).toMatchObject({ client_id: 3, limit: 15, page: 2, extra: "kept" });
    expect(resolvePaging(query)).toEqual({ limit: 15, offset: 15 });
    expect(resolvePaging({ limit: 10, offset: 30 })).toEqual({ limit: 10, offset: 30 });
    expect(resolvePaging({})).toEqual({ limit: 100, offset: 0 });
  });

  it("rejects non-integers and out-of-range values with DRF messages", () => {
    const result = listQuerySchema.safeParse(
      { limit: "ten", offset: "-1", page: ["1", "2"] },
      { error: drfErrorMap },
    );
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((issue) => [issue.path[0], issue.message]));
    expect(messages).toEqual({
      limit: "A valid integer is required.",
      offset: "Ensure this value is greater than or equal to 0.",
      page: "A valid integer is required.",
    });
  });

  it("parses ordering and names unknown fields", () => {
    expect(parseOrdering("code,-description", ["code", "description"])).toEqual({
      ok: true,
      terms: [
        { field: "code", descending: false },
        { field: "description", descending: true },
      ],
    });
    expect(parseOrdering("-nope,code", ["code"])).toEqual({ ok: false, unknown: ["nope"] });
    expect(parseOrdering(undefined, ["code"])).toEqual({ ok: true, terms: [] });
  });
});
