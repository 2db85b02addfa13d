import { lazy, type ComponentType } from "react";

export type ScreenAudience = "everyone" | "admins" | "public";

type Preloadable = { audience: ScreenAudience; preload: () => Promise<unknown> };

const screens: Preloadable[] = [];

/**
 * A screen loaded on first use, in its own chunk, so the first page downloads only what it shows.
 * Screens are named exports: `lazyScreen(() => import("./features/home/HomePage"), "HomePage")`.
 * Render it under a <Suspense> (the layouts hold one around their <Outlet />).
 * Signed-in screens are also fetched ahead of their first visit: `preloadScreens` after login.
 */
export function lazyScreen<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
  audience: ScreenAudience = "everyone",
) {
  let loading: Promise<{ default: ComponentType }> | undefined;
  // One import for the preload and the render, so a preloaded screen asks for no script again.
  const start = () => (loading ??= load().then((module) => ({ default: module[name] })));
  screens.push({ audience, preload: start });
  return lazy(start);
}

/**
 * Fetches the chunks of every screen the signed-in user's role can open, so a first visit waits
 * only for its data. A chunk that fails to load is left to its first visit, which shows the error.
 */
export function preloadScreens(viewer: { isAdmin: boolean }): Promise<void> {
  const wanted = screens.filter(
    (screen) => screen.audience === "everyone" || (screen.audience === "admins" && viewer.isAdmin),
  );
  return Promise.allSettled(wanted.map((screen) => screen.preload())).then(() => undefined);
}
