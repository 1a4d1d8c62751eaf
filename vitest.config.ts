import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          include: ['shared/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['sync-server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
    ],
  },
})
