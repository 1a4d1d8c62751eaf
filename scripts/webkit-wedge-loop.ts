import { z } from 'zod'
import { stopDisplay } from '../e2e/engines.ts'
import { percentile, runWedgeLoop, WEDGE_AFTER_MS } from '../e2e/webkit-wedge.ts'

// npm run loop:webkit-wedge: 200 fresh WebKitGTK sessions loading /dashboard
// against a running server (npm start; development mode, for dev-login).
// Prints the figures beside the target (0 wedged) and fails if any wedged.

const env = z
  .object({
    BASE_URL: z.url().default('http://127.0.0.1:3000'),
    WEDGE_LOOP_SESSIONS: z.coerce.number().int().positive().default(200),
    WEDGE_LOOP_USER: z.string().min(1).default('admin'),
  })
  .parse(process.env)

const started = performance.now()
const result = await runWedgeLoop(
  env.BASE_URL.replace(/\/$/, ''),
  env.WEDGE_LOOP_SESSIONS,
  env.WEDGE_LOOP_USER,
  (line) => console.log(line),
)
stopDisplay()
console.log(
  [
    `sessions: ${result.sessions}`,
    `wedged (Topics I Mentor not loaded within ${WEDGE_AFTER_MS} ms): ${result.wedged} (target 0)`,
    `dashboard load: median ${percentile(result.loadMs, 50)} ms, p95 ${percentile(result.loadMs, 95)} ms, max ${percentile(result.loadMs, 100)} ms`,
    `took ${Math.round((performance.now() - started) / 1000)} s`,
  ].join('\n'),
)
process.exitCode = result.wedged === 0 ? 0 : 1
