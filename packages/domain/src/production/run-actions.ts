// What Admin Processing may do to a run, a client's part of it and a pool, as the server enforces
// it: the refusals below are the server's 409s, and the records it returns carry the actions these
// functions allow, so the screen offers only what will work (issue 41 point 6).
import {
  NOTHING_TO_REBUILD_MESSAGE,
  POOL_BUILDING_MESSAGE,
  POOL_FAILED_MESSAGE,
} from "../delivery/pool-rules.js";

export const RUN_ACTIONS = ["rebuild_pools"] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];
export const RUN_PART_ACTIONS = ["undo"] as const;
export type RunPartAction = (typeof RUN_PART_ACTIONS)[number];
export const POOL_ACTIONS = ["download", "delete"] as const;
export type PoolAction = (typeof POOL_ACTIONS)[number];

export const PART_ALREADY_UNDONE_MESSAGE = "This client's part of the run is already undone.";
export const PART_NOT_FINISHED_MESSAGE =
  "This client's part of the run has not finished; undo it once it is done.";

/** What went out of a part (emails accepted, pools downloaded, autopay charges), as the 409 lists it. */
export function deliveryStartedMessage(wentOut: readonly string[]): string {
  return `Delivery has started (${wentOut.join("; ")}): this run can no longer be undone.`;
}

/** A client's part as its undo sees it. */
export type PartUndoState = {
  /** The part's own job finished (`done`). */
  finished: boolean;
  undone: boolean;
  /** An undo job of the part is queued or running (asking again answers it, so nothing to offer). */
  undoPending: boolean;
  /** What of it went out: any makes the undo impossible. */
  wentOut: readonly string[];
};

/** Why the server refuses to undo the part, or undefined when it may (a pending undo is answered, not refused). */
export function partUndoRefusal(state: PartUndoState): string | undefined {
  if (state.undone) return PART_ALREADY_UNDONE_MESSAGE;
  if (state.undoPending) return undefined;
  if (!state.finished) return PART_NOT_FINISHED_MESSAGE;
  if (state.wentOut.length > 0) return deliveryStartedMessage(state.wentOut);
  return undefined;
}

export function partActions(state: PartUndoState): RunPartAction[] {
  return !state.undoPending && partUndoRefusal(state) === undefined ? ["undo"] : [];
}

/** A run's pools as a rebuild sees them: how many of its done parts' pools it would build again. */
export type RunRebuildState = { poolsToRebuild: number };

export function rebuildRefusal(state: RunRebuildState): string | undefined {
  return state.poolsToRebuild === 0 ? NOTHING_TO_REBUILD_MESSAGE : undefined;
}

export function runActions(state: RunRebuildState): RunAction[] {
  return rebuildRefusal(state) === undefined ? ["rebuild_pools"] : [];
}

/** Why a pool's download is refused by its state (a missing zip is found only on opening it). */
export function poolDownloadRefusal(state: "building" | "ready" | "failed"): string | undefined {
  if (state === "building") return POOL_BUILDING_MESSAGE;
  if (state === "failed") return POOL_FAILED_MESSAGE;
  return undefined;
}

export function poolActions(state: "building" | "ready" | "failed"): PoolAction[] {
  return poolDownloadRefusal(state) === undefined ? ["download", "delete"] : ["delete"];
}
