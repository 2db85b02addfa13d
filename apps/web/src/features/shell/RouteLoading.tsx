import { Center, Loader } from "@mantine/core";
import { useEffect, useState } from "react";

// A screen's chunk usually arrives within a few frames; a spinner that flashes for that long is noise.
const SHOW_AFTER_MS = 300;

/** Suspense fallback while a screen's code loads: nothing at first, then a quiet spinner. */
export function RouteLoading({ fullPage = false }: { fullPage?: boolean }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Center h={fullPage ? "100vh" : undefined} py={fullPage ? undefined : "xl"}>
      {visible ? <Loader size="sm" aria-label="Loading" /> : null}
    </Center>
  );
}
