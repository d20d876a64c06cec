import { beforeEach, inject } from 'vitest'

// Set-up file of the `postgres` and `instances` projects: where PostgreSQL is missing, every test is skipped with
// the reason.
const template = inject('postgresTemplate')
beforeEach((context) => {
  if ('unavailable' in template) context.skip(`PostgreSQL is missing: ${template.unavailable}`)
})
