import { move } from 'piscina'
import { workerTasks } from './worker-tasks'

/**
 * Worker-thread entry (jobs/worker-pool.ts): runs one named task and answers with its result, or throws its error.
 * Bytes the task made on its own buffer (a rendered page) move back instead of being copied.
 */
export default async function runTask(message: { task: string; input: unknown }): Promise<unknown> {
  const task = (workerTasks as Record<string, (input: unknown) => unknown>)[message.task]
  if (!task) throw new Error(`Unknown worker task: ${message.task}`)
  const result = await task(message.input)
  const ownsBuffer =
    result instanceof Uint8Array &&
    result.buffer instanceof ArrayBuffer &&
    result.byteOffset === 0 &&
    result.byteLength === result.buffer.byteLength
  return ownsBuffer ? move(result) : result
}
