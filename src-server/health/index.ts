/** Health's public face: the guard and its checks, `/healthz`, and the hook that refuses writes when unhealthy. */
export {
  dataDirWritable,
  freeDisk,
  Guard,
  type GuardCheck,
  type GuardFinding,
  type GuardState,
  migrationsApplied,
  secretKeyPresent,
} from '../platform/guard'
export { guardWrites, healthRoutes } from './health.routes'
