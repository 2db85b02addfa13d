import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { uncaught } from "../support/auth.js";
import { useBrowserWorld } from "../support/browser-world.js";

// Issue 39, the access review as the demo's Greenway owner reads it: the client's users with their
// role and factors, the CSV with its date, and a review recorded and listed. Staff are turned away.

const OWNER = "owner@greenway.example";
const STAFF = "staff@greenway.example";

describe("the access review in the browser", () => {
  const world = useBrowserWorld({ demo: true, signIn: OWNER });

  test("an owner sees the users, downloads the CSV, and records a review that is then listed", async () => {
    const { page, pageErrors } = world.current();
    await page.goto("/home");
    await page.getByRole("navigation").getByRole("link", { name: "Access review" }).click();
    await page.getByRole("heading", { level: 1, name: "Access review" }).waitFor();

    const table = page.getByRole("table", { name: "Users and their access" });
    const ownerRow = table.getByRole("row").filter({ hasText: OWNER });
    await ownerRow.waitFor();
    await ownerRow.getByText("Owner", { exact: true }).waitFor();
    await ownerRow.getByText("Active", { exact: true }).waitFor();
    await ownerRow.getByText("Authenticator app: no").waitFor();
    const staffRow = table.getByRole("row").filter({ hasText: STAFF });
    await staffRow.getByText("Staff", { exact: true }).waitFor();
    // Only the client's own users: its owner and staff.
    expect(await table.locator("tbody tr").count()).toBe(2);
    // The owner is signed in right now: a sign-in time and an open session.
    expect(await ownerRow.getByRole("cell").last().innerText()).not.toBe("0");

    // The demo's past review is listed.
    const past = page.getByRole("table", { name: "Past reviews" });
    await past.getByText(/^Quarterly review:/).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    const name = download.suggestedFilename();
    const date = /^access-review-client-\d+-(\d{4}-\d{2}-\d{2})\.csv$/.exec(name)?.[1];
    expect(date, name).toBeDefined();
    const csv = (await readFile(await download.path(), "utf8")).split("\r\n");
    expect(csv[0]).toMatch(new RegExp(`^Access review,${date ?? ""},Greenway`));
    expect(csv[1]).toMatch(/^user_id,name,email,role,/);
    expect(csv.filter((line) => line.includes(OWNER) || line.includes(STAFF))).toHaveLength(2);

    // Recording asks for a note first; then the review heads the list, with who.
    const form = page.getByRole("region", { name: "Record review" });
    await form.getByRole("button", { name: "Record review" }).click();
    await form.getByText("Say what you checked (a note is required).").waitFor();
    const note = `Checked both accounts in the browser test (${String(Date.now())}).`;
    await form.getByLabel("Note").fill(note);
    await form.getByRole("button", { name: "Record review" }).click();
    await page.getByText("Review recorded.").waitFor();
    const first = past.locator("tbody tr").first();
    await first.getByText(note).waitFor();
    await first.getByText(OWNER).waitFor();
    expect(await form.getByLabel("Note").inputValue()).toBe("");
    expect(uncaught(pageErrors)).toEqual([]);
  });

  test("staff have no Access review entry and are told it is not theirs", async () => {
    const page = await world.current().openPage(STAFF);
    try {
      await page.goto("/home");
      await page.getByRole("heading", { level: 1, name: /^Welcome, / }).waitFor();
      expect(await page.getByRole("navigation").getByRole("link", { name: "Access review" }).count()).toBe(0);
      await page.goto("/access-review");
      await page
        .getByText("The access review is kept for the client's owners and the provider's admins.")
        .waitFor();
    } finally {
      await page.context().close();
    }
  });
});
