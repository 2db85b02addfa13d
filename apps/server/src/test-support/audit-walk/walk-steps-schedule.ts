import { scheduledCycleListSchema } from "@cyclebill/domain";
import { currentClock, setClock } from "../../clock.js";
import type { WalkStep } from "./walk-world.js";

// Scheduled cycles (issue 41): the walk's cycle day gets a schedule held for approval; a check with
// the app's clock at the end of that day claims its scheduled run, which is approved.

export const scheduleSteps: WalkStep[] = [
  {
    route: "PUT /api/production/schedules/{n}/",
    action: "production_schedule.create",
    call: (world) =>
      world.admin.put(`/api/production/schedules/${world.made.cycle}/`, {
        run_time: "00:00",
        requires_approval: true,
      }),
  },
  {
    route: "POST /api/production/scheduled/check/",
    action: "scheduled_run.create",
    call: async (world) => {
      const real = currentClock();
      setClock({ now: () => new Date(`${world.texts.runDate}T23:59:00Z`), timeZone: "UTC" });
      try {
        const answer = await world.admin.post("/api/production/scheduled/check/");
        const found = scheduledCycleListSchema
          .parse(answer.body)
          .results.find((item) => item.cycle === world.made.cycle && item.run_date === world.texts.runDate);
        world.made.scheduledRun = found?.id ?? 0;
        return answer;
      } finally {
        setClock(real);
      }
    },
  },
  {
    route: "POST /api/production/scheduled/{id}/approve/",
    action: "scheduled_run.approve",
    call: (world) => world.admin.post(`/api/production/scheduled/${world.made.scheduledRun}/approve/`),
  },
  {
    route: "DELETE /api/production/schedules/{n}/",
    action: "production_schedule.delete",
    call: (world) => world.admin.delete(`/api/production/schedules/${world.made.cycle}/`),
  },
  {
    route: "PUT /api/production/holds/{client_id}/",
    action: "production_hold.create",
    call: (world) =>
      world.admin.put(`/api/production/holds/${world.clientId}/`, { reason: "Walk: disputed rates" }),
  },
  {
    route: "DELETE /api/production/holds/{client_id}/",
    action: "production_hold.delete",
    call: (world) => world.admin.delete(`/api/production/holds/${world.clientId}/`),
  },
];
