import { defineConfig } from 'vitest/config'

const PROCESS_TESTS = 'sync-server/{failover,postgres-restart,rolling-restart,scale-out}.test.ts'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          include: ['shared/**/*.test.ts'],
          setupFiles: ['test-support/console-guard.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['sync-server/**/*.test.ts'],
          exclude: [PROCESS_TESTS],
          // A test fails on unexpected console.error/warn; expectConsole() marks what it means.
          setupFiles: ['test-support/console-guard.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        // Whole server processes behind proxies, with their database cut, restarted or shared
        // (PostgreSQL only): one file at a time, after the browser tests, so that what they
        // measure and the timing of the outages they cause are not at the mercy of other suites.
        test: {
          name: 'processes',
          include: [PROCESS_TESTS],
          setupFiles: ['test-support/console-guard.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          pool: 'forks',
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // The PWA's sync client in Node: fake-indexeddb for IndexedDB, the real server and database.
        test: {
          name: 'pwa',
          include: ['pwa/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['pwa/src/sync/testing/setup.ts', 'test-support/console-guard.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        // Browser tests: Chromium against the built PWA served by the real server, which
        // e2e/global-setup.ts builds and starts once. One file at a time, after the other
        // projects (groupOrder), so the browser does not compete with them for the CPU.
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
