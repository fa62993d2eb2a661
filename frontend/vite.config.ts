/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The dev server proxies the API to a locally running `arbiter serve`
// (override with ARBITER_DEV_API, e.g. http://127.0.0.1:9000).
const apiTarget = process.env.ARBITER_DEV_API ?? "http://127.0.0.1:8080";

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    proxy: {
      "/api": apiTarget,
      "/healthz": apiTarget,
    },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test/setup.ts"],
    restoreMocks: true,
    // note: chart tests load the chart chunk lazily, which takes seconds on a busy machine
    testTimeout: 30000,
  },
});
