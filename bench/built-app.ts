import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'

/** The built app the browser benchmarks serve: dist/ with BENCH_SKIP_BUILD=1, else a fresh production build. */
export async function builtApp(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  if (process.env.BENCH_SKIP_BUILD === '1' && existsSync('dist/index.html')) {
    return { dir: 'dist', cleanup: async () => {} }
  }
  const dir = await mkdtemp(join(tmpdir(), 'pairwise-bench-'))
  process.env.NODE_ENV = 'production'
  await build({ logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } })
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) }
}
