import { createHash } from 'node:crypto'
import { aiWorkerTasks } from './ai/worker-tasks'
import { documentRecognitionWorkerTasks } from './document-recognition/worker-tasks'
import { knowledgeWorkerTasks } from './knowledge/worker-tasks'

/**
 * CPU-heavy functions that run on worker threads (see jobs/worker-pool.ts). Each takes structured-cloneable
 * input and returns structured-cloneable output. Domains add their tasks here.
 */
export const workerTasks = {
  /** SHA-256 of bytes, for large uploads. */
  sha256: (input: { bytes: Uint8Array }) => createHash('sha256').update(input.bytes).digest('hex'),
  ...aiWorkerTasks,
  ...knowledgeWorkerTasks,
  ...documentRecognitionWorkerTasks,
} satisfies Record<string, (input: never) => unknown>

export type WorkerTaskName = keyof typeof workerTasks
