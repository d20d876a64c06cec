type Task = (input: never) => unknown

/**
 * The tasks a child process runs (jobs/task-process.ts), each module loaded on first use: the process starts in a
 * fraction of the time the whole worker task table takes to load.
 */
const processTasks: Record<string, () => Promise<Task>> = {
  readWithPaddle: () =>
    import('./document-recognition/worker-tasks').then(
      (m) => m.documentRecognitionWorkerTasks.readWithPaddle,
    ),
}

/** Child-process entry: runs the tasks its parent sends over IPC and answers each with its result or error. */
process.on('message', async (message: { id: number; task: string; input: unknown }) => {
  try {
    const load = processTasks[message.task]
    if (!load) throw new Error(`Unknown task: ${message.task}`)
    const task = (await load()) as (input: unknown) => unknown
    process.send?.({ id: message.id, result: await task(message.input) })
  } catch (error) {
    process.send?.({ id: message.id, error: error instanceof Error ? error.message : String(error) })
  }
})
process.on('disconnect', () => process.exit(0))
