import { MantineProvider } from "@mantine/core";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Suspense, useState } from "react";
import { RouterProvider } from "react-router";
import { ApiError } from "./api/api-client";
import { handleApiError } from "./api/api-errors";
import { RouteLoading } from "./features/shell/RouteLoading";
import { createAppRouter } from "./router";
import { lazyScreen } from "./lib/lazy-screen";
import { cssVariablesResolver, theme } from "./theme";

const Toasts = lazyScreen(() => import("./features/shell/Toasts"), "Toasts");

function createQueryClient() {
  return new QueryClient({
    // Every request's failure passes the spec's error catalogue once, here, instead of per screen.
    queryCache: new QueryCache({ onError: handleApiError }),
    mutationCache: new MutationCache({ onError: handleApiError }),
    defaultOptions: {
      queries: {
        // The spec's 30 s cache; screens force a refresh with refetch()/invalidateQueries().
        staleTime: 30_000,
        // Retrying a 4xx cannot change the answer, so only retry network and server errors.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      },
    },
  });
}

export function App() {
  // useState keeps one client and router per mounted app (and per test render).
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createAppRouter);

  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
      <QueryClientProvider client={queryClient}>
        {/* Layouts load lazily too; their own <Suspense> covers the screens inside them. */}
        <Suspense fallback={<RouteLoading fullPage />}>
          <RouterProvider router={router} />
        </Suspense>
      </QueryClientProvider>
    </MantineProvider>
  );
}
