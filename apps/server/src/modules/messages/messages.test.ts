import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fixture, testApp, useTenantApp } from "../../test-support/tenant-app.js";

useTenantApp();

describe("/api/messages", () => {
  it("shows the client's message and the admin's system message", async () => {
    await testApp.db.execute(
      sql`update clients set client_message = 'Office closed Friday' where id = ${fixture.a.clientId}`,
    );
    expect((await testApp.client(fixture.a.staffToken).get("/api/messages")).body).toEqual({
      client_message: "Office closed Friday",
      system_message: "",
    });
    const set = await testApp
      .client(fixture.adminToken)
      .put("/api/messages", { system_message: "Maintenance Sunday 2am" });
    expect(set.status).toBe(200);
    expect((await testApp.client(fixture.b.ownerToken).get("/api/messages")).body).toEqual({
      client_message: "",
      system_message: "Maintenance Sunday 2am",
    });
    expect(
      (await testApp.client(fixture.adminToken).get("/api/messages", { client_id: fixture.a.clientId })).body,
    ).toEqual({
      client_message: "Office closed Friday",
      system_message: "Maintenance Sunday 2am",
    });
  });

  it("checks the length as sent, as the document's maxLength says, then stores it trimmed", async () => {
    const admin = testApp.client(fixture.adminToken);
    const padded = await admin.put("/api/messages", { system_message: `  ${"x".repeat(999)}  ` });
    expect(padded.status).toBe(400);
    expect(padded.body).toEqual({ system_message: ["Ensure this field has no more than 1000 characters."] });
    const fits = await admin.put("/api/messages", { system_message: ` ${"y".repeat(998)} ` });
    expect(fits.status).toBe(200);
    expect((fits.body as { system_message: string }).system_message).toBe("y".repeat(998));
  });

  it("lets only admins set the system message", async () => {
    expect(
      (await testApp.client(fixture.a.ownerToken).put("/api/messages", { system_message: "hi" })).status,
    ).toBe(403);
    expect((await testApp.client().get("/api/messages")).status).toBe(401);
    expect(
      (await testApp.client(fixture.adminToken).put("/api/messages", { system_message: 42 })).status,
    ).toBe(400);
  });
});
