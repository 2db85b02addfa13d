import { lazy, type ComponentType } from "react";

/**
 * A screen loaded on first use, in its own chunk, so the first page downloads only what it shows.
 * Screens are named exports: `lazyScreen(() => import("./features/home/HomePage"), "HomePage")`.
 * Render it under a <Suspense> (the layouts hold one around their <Outlet />).
 */
export function lazyScreen<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
) {
  return lazy(async () => ({ default: (await load())[name] }));
}
