import { describe, expect, test } from "vitest";
import { axeViolations, formatViolations } from "../support/axe.js";
import { runCycle, type RunFixture } from "../support/api.js";
import { OTHER_TEST_CARDS, makePayClient, storeCard, usePaymentWorld } from "./payment-world.js";

// Process CC Payments: customers with a card on file, a selection charged as a card run with a
// progress bar, then each customer's result (approved and declined) and the totals.

const ADMIN_EMAIL = "process-cc-admin@example.test";
const ADMIN_PASSWORD = "process-cc-Admin-Password-1";

describe("Process CC Payments", () => {
  const world = usePaymentWorld(ADMIN_EMAIL, ADMIN_PASSWORD);

  test("lists customers with a card on file, charges all of them, shows approved and declined", async () => {
    const { admin } = world.current();
    const shop = await makePayClient(admin, "Bulk Card Client");
    const customers = [
      { first: "Ada", rate: "11.00" },
      { first: "Ben", rate: "12.00" }, // even dollars decline in the sandbox's TEST mode
      { first: "Cy", rate: "13.00" },
    ];
    const made = [];
    for (const [index, { first, rate }] of customers.entries()) {
      const customer = await shop.customer(first, "Carded");
      await shop.charge(customer, rate);
      await storeCard(admin, shop.client.id, customer.id, OTHER_TEST_CARDS[index]);
      made.push(customer);
    }
    const cardless = await shop.customer("Dee", "Cardless");
    await shop.charge(cardless, "9.00");

    const page = await world.openPage();
    await page.goto(`/customers/processCC?client_id=${shop.client.id}`);
    await page.getByRole("heading", { level: 1, name: "Process CC Payments" }).waitFor();
    const table = page.getByRole("table", { name: "Customers with a payment method on file" });
    await table.getByRole("row").filter({ hasText: "Cy Carded" }).waitFor();
    expect(await table.locator("tbody tr").count()).toBe(3);
    expect(await table.getByText("Dee Cardless").count()).toBe(0);

    await table.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByTestId("selection-summary").getByText("3 selected · $36.00").waitFor();
    await page.getByRole("button", { name: "Make Payments (3)" }).click();
    const dialog = page.getByRole("dialog", { name: "Make payments" });
    await dialog.getByRole("button", { name: "Charge $36.00" }).click();

    const results = page.getByRole("table", { name: "Payment results" });
    // The run's own progress: the customer table's pager ("1–3 of 3 customers") says it too.
    const cardRun = page.locator('[aria-label="Card run"]');
    await cardRun.getByText("3 of 3 customers").waitFor({ timeout: 30_000 });
    const totals = page.getByTestId("card-run-totals");
    // On a miss, say what the page showed: totals and each customer's message.
    await totals
      .getByText("2 approved · $24.00")
      .waitFor({ timeout: 30_000 })
      .catch(async (error: unknown) => {
        throw new Error(`Totals: ${await totals.innerText()} | Results: ${await results.innerText()}`, {
          cause: error,
        });
      });
    await totals.getByText("1 declined").waitFor();
    expect(formatViolations(await axeViolations(page))).toBe("");
    const statusOf = (name: string) =>
      results.getByRole("row").filter({ hasText: name }).getAttribute("data-status");
    expect(await statusOf("Ada")).toBe("approved");
    expect(await statusOf("Ben")).toBe("declined");
    expect(await statusOf("Cy")).toBe("approved");
    expect(await Promise.all(made.map((customer) => shop.balance(customer)))).toEqual([
      "0.00",
      "12.00",
      "0.00",
    ]);
  });

  test("a company customer's result shows the company's name", async () => {
    const { admin } = world.current();
    const shop = await makePayClient(admin, "Company Card Client");
    const company = await shop.customer("", "", { company_name: "Acme Supply Co" });
    await shop.charge(company, "17.00");
    // A card no other test stores: the sandbox answers the same card's $0.00 AUTH within seconds as DUPLICATE.
    await storeCard(admin, shop.client.id, company.id, OTHER_TEST_CARDS[4]);

    const page = await world.openPage();
    await page.goto(`/customers/processCC?client_id=${shop.client.id}`);
    const table = page.getByRole("table", { name: "Customers with a payment method on file" });
    await table.getByRole("row").filter({ hasText: "Acme Supply Co" }).waitFor();
    await table.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByRole("button", { name: "Make Payments (1)" }).click();
    await page
      .getByRole("dialog", { name: "Make payments" })
      .getByRole("button", { name: "Charge $17.00" })
      .click();
    // Waiting on the run's totals, not on "1 of 1 customers": the customer table's pager
    // ("1–1 of 1 customers") says that from the start, and the row was read while still pending.
    const totals = page.getByTestId("card-run-totals");
    await totals
      .getByText("1 approved · $17.00")
      .waitFor({ timeout: 30_000 })
      .catch(async (error: unknown) => {
        throw new Error(`Totals: ${await totals.innerText()}`, { cause: error });
      });
    const row = page
      .getByRole("table", { name: "Payment results" })
      .getByRole("row")
      .filter({ hasText: "Acme Supply Co" });
    await row.waitFor();
    // On a miss, say what the row showed (its result and the gateway's message).
    expect(`${await row.getAttribute("data-status")}: ${await row.innerText()}`).toMatch(/^approved: /);
  });

  test("autopay charges the statement's amount due after a production run; Admin Processing shows the results", async () => {
    const { admin } = world.current();
    const cycle = 16;
    const runDate = "2026-05-16";
    const shop = await makePayClient(admin, "Autopay Client", { cycle });
    const auto = await shop.customer("Otto", "Autopay");
    await shop.charge(auto, "15.00");
    // A card the first test did not store: the sandbox answers the same card within seconds DUPLICATE.
    await storeCard(admin, shop.client.id, auto.id, OTHER_TEST_CARDS[3], true);

    type Run = RunFixture & { clients: { autopay_job_id: number | null }[] };
    // Until the run's autopay card run has started too.
    const run = await runCycle<Run>(
      admin,
      cycle,
      { run_date: runDate, client_ids: [shop.client.id] },
      (current) => current.status === "done" && current.clients[0]?.autopay_job_id != null,
    );

    const page = await world.openPage();
    await page.goto(`/AdminProcessingView?cycle=${cycle}&run_date=${runDate}&run=${run.id}`);
    const part = page.getByRole("row").filter({ hasText: "Autopay Client" }).first();
    await part.getByRole("button", { name: "Autopay results" }).click();
    const dialog = page.getByRole("dialog", { name: "Autopay: Autopay Client" });
    await dialog.getByTestId("card-run-totals").getByText("1 approved · $15.00").waitFor({ timeout: 30_000 });
    const row = dialog
      .getByRole("table", { name: "Payment results" })
      .getByRole("row")
      .filter({ hasText: "Otto" });
    expect(`${await row.getAttribute("data-status")}: ${await row.innerText()}`).toMatch(/^approved: /);
    expect(await shop.balance(auto)).toBe("0.00");
  });
});
