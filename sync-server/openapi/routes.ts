import { Hono } from 'hono'
import type { AppEnv } from '../http/env.ts'

export const openApiRoutes = new Hono<AppEnv>()
