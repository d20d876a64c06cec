import path from 'node:path'
import { findAppRoot } from '../../src-server/platform/config'

/**
 * The shared fixtures (real documents nobody here wrote) live beside the project at `../shared/fixtures`, on
 * developers' machines and in CI alike; `SWITCHBOARD_FIXTURES_ROOT` points elsewhere.
 */
export const FIXTURES_ROOT =
  process.env.SWITCHBOARD_FIXTURES_ROOT ?? path.join(findAppRoot(), '..', 'shared', 'fixtures')

export const fixturePath = (...parts: string[]) => path.join(FIXTURES_ROOT, ...parts)
