import { defineConfig, defaultClientConditions } from "vite";
import react from "@vitejs/plugin-react";

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
  },
});
