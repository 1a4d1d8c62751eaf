import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

describe('npm start in production without sign-in configured', () => {
  it('refuses to start and names every missing variable', () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: 'production' }
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    })

    expect(run.status).toBe(1)
    for (const name of [
      'ENTRA_CLIENT_ID',
      'ENTRA_CLIENT_SECRET',
      'ENTRA_TENANT_ID',
      'PUBLIC_URL',
    ]) {
      expect(run.stderr).toContain(`${name}: required in production`)
    }
    expect(run.stderr).not.toMatch(/\n\s+at /)
    expect(run.stdout).not.toContain('listening')
  })
})
