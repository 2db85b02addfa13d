import type { ApiResponse } from "../test-app.js";
import { tenantResourceCases } from "../tenant-resources.js";
import { idOf, ok, type WalkStep, type WalkWorld } from "./walk-world.js";

// The audit walk's steps for accounts, clients, customers and the resources every client keeps.

export const NEWCOMER = "walk.newcomer@example.com";
export const NEWCOMER_PASSWORDS = ["walk first pass 1", "walk second pass 2"] as const;

function linkIn(text: string, path: string): URL {
  const match = new RegExp(`https?://\\S+${path.replace("/", "\\/")}\\?\\S+`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return new URL(match[0]);
}

const mailedToken = async (world: WalkWorld, path: string): Promise<string> =>
  linkIn((await world.testApp.mail.lastTo(NEWCOMER)).text, path).searchParams.get("token") ?? "";

const signIn = (world: WalkWorld, password: string): Promise<ApiResponse> =>
  world.anonymous.post("/api/auth-jwt/", { username: NEWCOMER, password });

export const accessSteps: WalkStep[] = [
  {
    route: "POST /api/register/",
    action: "user.register",
    call: (world) =>
      world.anonymous.post("/api/register/", {
        firstName: "Walk",
        lastName: "Newcomer",
        email: NEWCOMER,
        password: NEWCOMER_PASSWORDS[0],
        confirmPassword: NEWCOMER_PASSWORDS[0],
      }),
  },
  {
    route: "POST /api/register/confirm/",
    action: "user.prove_email",
    call: async (world) =>
      world.anonymous.post("/api/register/confirm/", {
        email: NEWCOMER,
        token: await mailedToken(world, "/register/confirm"),
        password: NEWCOMER_PASSWORDS[0],
      }),
  },
  {
    route: "POST /api/auth-jwt/",
    action: "user.sign_in",
    call: async (world) => {
      const answer = await signIn(world, NEWCOMER_PASSWORDS[0]);
      world.texts.newcomerToken = (answer.body as { token: string }).token;
      return answer;
    },
  },
  {
    route: "POST /api/auth/logout/",
    action: "session.end",
    call: (world) => world.testApp.client(world.texts.newcomerToken).post("/api/auth/logout/"),
  },
  {
    route: "POST /api/forgot-password/",
    action: "user.issue_link",
    call: (world) => world.anonymous.post("/api/forgot-password/", { email: NEWCOMER }),
  },
  {
    route: "POST /api/reset-password/",
    action: "user.set_password",
    call: async (world) =>
      world.anonymous.post("/api/reset-password/", {
        email: NEWCOMER,
        token: await mailedToken(world, "/passwordReset"),
        password: NEWCOMER_PASSWORDS[1],
        password_confirmation: NEWCOMER_PASSWORDS[1],
      }),
  },
  {
    route: "PUT /api/messages",
    action: "system_message.update",
    call: (world) => world.admin.put("/api/messages", { system_message: "Walk: statements go out Friday." }),
  },
  {
    route: "POST /api/access-review/reviews/",
    action: "access_review.record",
    call: (world) =>
      world.owner.post("/api/access-review/reviews/", { note: "Walk: every user checked, none to remove." }),
  },
  {
    route: "POST /api/clients/",
    action: "client.create",
    call: async (world) => {
      const created = await world.admin.post("/api/clients/", { client_name: "Walk Client" });
      world.made.walkClient = idOf(ok(created, "client"));
      return created;
    },
  },
  {
    route: "PUT /api/clients/{id}/",
    action: "client.update",
    call: async (world) => {
      const id = world.made.walkClient ?? 0;
      const current = ok(await world.admin.get(`/api/clients/${id}/`), "client").body as Record<
        string,
        unknown
      >;
      return world.admin.put(`/api/clients/${id}/`, {
        ...current,
        client_name: "Walk Client Renamed",
        address1: "1 Walk Way",
        city: "Austin",
        state: "TX",
        zip: "78701",
      });
    },
  },
  {
    route: "DELETE /api/clients/{id}/",
    action: "client.delete",
    call: (world) => world.admin.delete(`/api/clients/${world.made.walkClient ?? 0}/`),
  },
  {
    route: "POST /api/customers/full-create/",
    action: "customer.create",
    call: (world) =>
      world.owner.post("/api/customers/full-create/", {
        customer: {
          company_name: "Walk Full Create Co",
          address1: "5 Walk St",
          city: "Austin",
          state: "TX",
          zip: "78701",
        },
      }),
  },
];

/** Each resource's record kind in the trail, and the verbs its create and delete are recorded as. */
const TRAIL_NAMES: Record<string, [kind: string, create: string, remove: string]> = {
  codes: ["code", "create", "delete"],
  routes: ["group", "create", "delete"],
  users: ["user", "invite", "delete"],
  routeplans: ["route_plan", "create", "delete"],
  customers: ["customer", "create", "archive"],
  storedamounts: ["stored_amount", "create", "delete"],
  autoamounts: ["recurring_charge", "create", "delete"],
  transactions: ["ledger_entry", "post", "delete"],
  invoices: ["invoice", "create", "delete"],
};

/** The create, update and delete of each resource kept by every client (the conventions fuzz's list). */
export const resourceSteps: WalkStep[] = tenantResourceCases.flatMap((resource, index): WalkStep[] => {
  const n = 900 + index * 10;
  const kind = resource.path.split("/")[2] ?? "";
  const memberRoute = `${resource.path}{id}/`;
  const [recordKind, created, removed] = TRAIL_NAMES[kind] ?? [kind, "create", "delete"];
  const body = (world: WalkWorld, seed: number) =>
    resource.validBody(seed, { api: world.owner, clientId: world.clientId });
  return [
    {
      route: `POST ${resource.path}`,
      action: `${recordKind}.${created}`,
      call: async (world) => {
        const created = await world.owner.post(resource.path, await body(world, n));
        world.made[kind] = idOf(ok(created, resource.path));
        if (kind === "customers") world.made.walkCustomer = world.made[kind] ?? 0;
        return created;
      },
    },
    {
      route: `PUT ${memberRoute}`,
      action: `${recordKind}.update`,
      call: async (world) =>
        world.owner.put(`${resource.path}${world.made[kind] ?? 0}/`, await body(world, n + 1)),
    },
    {
      route: `DELETE ${memberRoute}`,
      action: `${recordKind}.${removed}`,
      call: async (world) => {
        // The customer is kept for later steps; a second one is archived.
        if (kind !== "customers") return world.owner.delete(`${resource.path}${world.made[kind] ?? 0}/`);
        const spare = idOf(ok(await world.owner.post(resource.path, await body(world, n + 2)), "spare"));
        return world.owner.delete(`${resource.path}${spare}/`);
      },
    },
  ];
});
