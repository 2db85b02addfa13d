import { defineConfig, defaultClientConditions } from "vite";
import react from "@vitejs/plugin-react";

// Libraries every screen needs, in chunks of their own: they change less often than the app, so a
// new release leaves them in the browser's cache. Other shared code is split per use by Rolldown.
const VENDOR_CHUNKS: { name: string; test: RegExp }[] = [
  { name: "react", test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: "router", test: /[\\/]node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/ },
  { name: "query", test: /[\\/]node_modules[\\/]@tanstack[\\/]/ },
];

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Setting `conditions` replaces Vite's defaults, so spread them back in; "source" makes
    // workspace packages such as @cyclebill/domain resolve to their TypeScript source.
    conditions: ["source", ...defaultClientConditions],
  },
  server: {
    proxy: { "/api": "http://localhost:8080" },
  },
  build: {
    outDir: "dist",
    // dist/.vite/manifest.json maps each screen to its chunks (read by bench/first-load.bench.ts).
    manifest: true,
    rolldownOptions: {
      output: { codeSplitting: { groups: VENDOR_CHUNKS } },
    },
  },
});
